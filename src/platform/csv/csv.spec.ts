import { csvCell, formatInZone, toCsv } from './csv';

describe('CSV for spreadsheets', () => {
  it('escapes text that a spreadsheet would run as a formula', () => {
    expect(['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tx', 'plain'].map(csvCell)).toEqual(["'=1+1", "'+SUM(A1)", "'-2+3", "'@cmd", "'\tx", 'plain']);
  });

  it('keeps negative numbers as numbers', () => {
    expect(csvCell(-5)).toBe('-5');
  });

  it('quotes commas, quotes and line breaks', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=x,"y"')).toBe(`"'=x,""y"""`);
  });

  it('writes a header, CRLF rows and a byte-order mark', () => {
    expect(toCsv(['a', 'b'], [[1, 'x']])).toBe('\uFEFFa,b\r\n1,x\r\n');
  });

  it('formats a date in the given time zone', () => {
    const date = new Date('2026-11-28T23:30:00Z');
    expect(formatInZone(date, 'UTC')).toBe('2026-11-28 23:30:00');
    expect(formatInZone(date, 'Europe/Berlin')).toBe('2026-11-29 00:30:00');
    expect(formatInZone(date, 'America/New_York')).toBe('2026-11-28 18:30:00');
  });
});
