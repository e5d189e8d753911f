import { dateFormat } from './date-format';

/** ISO dates as content and APIs carry them: YYYY-MM-DD, optionally with a time (T or space). */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

export class InvalidDateError extends Error {
  constructor(readonly value: string) {
    super(`Invalid date "${value}": it must match YYYY-MM-DD with an optional time`);
    this.name = 'InvalidDateError';
  }
}

/** The date of an ISO string, or InvalidDateError (also for dates that do not exist, like 2026-02-30). */
export function parseIsoDate(value: string): Date {
  const m = ISO_DATE.exec(value);
  if (!m) throw new InvalidDateError(value);
  const [, y, mo, d, h = '00', mi = '00', s = '00', zone = 'Z'] = m;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${zone}`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== `${y}-${mo}-${d}` && zone === 'Z') {
    throw new InvalidDateError(value);
  }
  return date;
}

/** "October 2, 2026" in en-US, in UTC so server and browser agree. */
export function formatDate(value: string, tag = 'en-US'): string {
  return dateFormat(tag, 'day').format(parseIsoDate(value));
}

/** "October 2026" in en-US for a YYYY-MM month, in UTC; anything else as it is. */
export function formatMonth(month: string, tag = 'en-US'): string {
  const date = new Date(`${month}-01T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? month : dateFormat(tag, 'month').format(date);
}
