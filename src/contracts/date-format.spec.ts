import { dateFormat } from './date-format';

describe('dateFormat in US English, written out', () => {
  // Every day of a leap year and of a year of each century the site could show, against Intl.
  const days = (year: number) => Array.from({ length: 366 }, (_, i) => new Date(Date.UTC(year, 0, 1 + i)));
  const dates = [1999, 2024, 2026, 2100].flatMap(days);

  it.each(['day', 'month', 'shortDay'] as const)('writes %s exactly as Intl does for en-US and en', (style) => {
    for (const tag of ['en-US', 'en']) {
      const intl = new Intl.DateTimeFormat(tag, { day: style === 'month' ? undefined : 'numeric', month: style === 'shortDay' ? 'short' : 'long', year: style === 'shortDay' ? undefined : 'numeric', timeZone: 'UTC' });
      for (const date of dates) expect(dateFormat(tag, style).format(date)).toBe(intl.format(date));
    }
  });

  it('reads the date in UTC whatever the time of day', () => {
    expect(dateFormat('en-US', 'day').format(new Date('2026-10-02T23:59:59.999Z'))).toBe('October 2, 2026');
  });

  it('refuses an invalid date as Intl does', () => {
    expect(() => dateFormat('en-US', 'day').format(new Date('nope'))).toThrow(RangeError);
    expect(() => new Intl.DateTimeFormat('en-US').format(new Date('nope'))).toThrow(RangeError);
  });

  it('leaves other languages to Intl', () => {
    expect(dateFormat('en-GB', 'day').format(new Date('2026-10-02T00:00:00Z'))).toBe('2 October 2026');
    expect(dateFormat('fr', 'shortDay').format(new Date('2026-10-02T00:00:00Z'))).toBe('2 oct.');
  });
});
