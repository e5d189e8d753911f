const STYLES = {
  day: { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' },
  month: { year: 'numeric', month: 'long', timeZone: 'UTC' },
  shortDay: { month: 'short', day: 'numeric', timeZone: 'UTC' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * One date formatter per locale and style, made once. `toLocaleDateString(tag, options)` builds a
 * new Intl.DateTimeFormat on every call, and that one call was 6% of rendering a level page. The
 * tags are the site's few locales, so the map stays small. Dates are shown in UTC so that server and
 * browser agree.
 */
export function dateFormat(tag: string, style: keyof typeof STYLES): Intl.DateTimeFormat {
  const key = `${tag} ${style}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.DateTimeFormat(tag, STYLES[style])));
  return format;
}
