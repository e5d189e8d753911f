/**
 * CSV for the downloads (RFC 4180: CRLF, quotes doubled), safe to open in a spreadsheet: a text cell
 * starting with =, +, -, @, a tab or a carriage return would run as a formula (OWASP "CSV
 * injection"), so it gets a leading apostrophe. Numbers stay numbers (a negative amount is one).
 */
export type CsvCell = string | number;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: CsvCell): string {
  if (typeof value === 'number') return String(value);
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A byte-order mark first: spreadsheets then read the file as UTF-8. */
export function toCsv(header: string[], rows: CsvCell[][]): string {
  return `\uFEFF${[header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/** `2026-11-28 21:05:09` in `timeZone` (IANA): the exports' dates, with the zone named in their header. */
export function formatInZone(date: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** Cents as dollars with two decimals, for a spreadsheet: 299 → "2.99". */
export const dollars = (cents: number) => (cents / 100).toFixed(2);
