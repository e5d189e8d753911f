const STYLES = {
  day: { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' },
  month: { year: 'numeric', month: 'long', timeZone: 'UTC' },
  shortDay: { month: 'short', day: 'numeric', timeZone: 'UTC' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

type DateStyle = keyof typeof STYLES;

/** What a page needs of a date formatter. */
export interface DateFormat {
  format(date: Date): string;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * US English, the site's own language, written out: exactly what Intl gives for these styles
 * (date-format.spec.ts compares every day of four years). The first Intl formatter a browser tab
 * makes loads ICU's data, 35–55 ms of the main thread on a mid-range machine, and the first place a
 * page makes one is its hydration: one long task a player's tap waits behind (issue 35).
 */
const US_ENGLISH: Record<DateStyle, (date: Date) => string> = {
  day: (date) => `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`,
  month: (date) => `${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`,
  shortDay: (date) => `${MONTHS[date.getUTCMonth()]!.slice(0, 3)} ${date.getUTCDate()}`,
};

/** Tags whose dates and numbers read as in en-US (ICU resolves plain `en` to it). */
export const isUsEnglish = (tag: string): boolean => tag === 'en-US' || tag === 'en';

/** Intl's answer to an invalid date, kept by the written-out English. */
function validDate(date: Date): Date {
  if (Number.isNaN(date.getTime())) throw new RangeError('Invalid time value');
  return date;
}

const formats = new Map<string, DateFormat>();

/**
 * One date formatter per locale and style, made once. `toLocaleDateString(tag, options)` builds a
 * new Intl.DateTimeFormat on every call, and that one call was 6% of rendering a level page. The
 * tags are the site's few locales, so the map stays small. Dates are shown in UTC so that server and
 * browser agree.
 */
export function dateFormat(tag: string, style: DateStyle): DateFormat {
  const key = `${tag} ${style}`;
  let format = formats.get(key);
  if (!format) {
    const english = US_ENGLISH[style];
    format = isUsEnglish(tag) ? { format: (date) => english(validDate(date)) } : new Intl.DateTimeFormat(tag, STYLES[style]);
    formats.set(key, format);
  }
  return format;
}
