import { isUsEnglish } from './date-format';

/**
 * A whole number as the locale writes it: `1,000` in US English. US English is written out, for
 * the reason dateFormat gives (the first Intl formatter of a tab costs tens of milliseconds of its
 * hydration); number-format.spec.ts holds it to what Intl gives. Other locales, and anything not a
 * safe integer, go to Intl.
 */
export function formatInteger(value: number, tag: string): string {
  if (!isUsEnglish(tag) || !Number.isSafeInteger(value)) return value.toLocaleString(tag);
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, ',');
  return value < 0 || Object.is(value, -0) ? `-${digits}` : digits;
}
