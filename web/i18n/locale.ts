/**
 * Locale rules, plain functions shared by the server entry and the browser. Paths carry the
 * locale as their first segment, except for the default locale ('/levels/27' is English,
 * '/fr/levels/27' would be French); a visitor without a prefix is sent to the locale of their
 * cookie or, failing that, of their browser.
 */

export const DEFAULT_LOCALE = 'en';
/** The BCP 47 tag used for formatting when a locale's own tag is unknown. */
export const FALLBACK_TAG = 'en-US';
export const LOCALE_COOKIE = 'locale';
export const LOCALE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** '/fr/levels/27' → { locale: 'fr', path: '/levels/27' }; unprefixed paths are the default locale. */
export function splitLocale(pathname: string, locales: readonly string[]): { locale: string; path: string; prefixed: boolean } {
  const match = /^\/([a-z]{2}(?:-[A-Z]{2})?)(?=\/|$)(.*)$/.exec(pathname);
  if (match && locales.includes(match[1]!)) {
    return { locale: match[1]!, path: match[2] || '/', prefixed: true };
  }
  return { locale: DEFAULT_LOCALE, path: pathname, prefixed: false };
}

/** The URL of a route path in a locale: '/levels?x=1' in 'fr' → '/fr/levels?x=1'. */
export function localizePath(to: string, locale: string): string {
  if (locale === DEFAULT_LOCALE || !to.startsWith('/') || to.startsWith('//')) return to;
  return to === '/' ? `/${locale}` : /^\/[?#]/.test(to) ? `/${locale}${to.slice(1)}` : `/${locale}${to}`;
}

/** The value of one cookie in a Cookie header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const index = part.indexOf('=');
    if (index !== -1 && part.slice(0, index).trim() === name) return decodeURIComponent(part.slice(index + 1).trim());
  }
  return undefined;
}

/** The best available locale for an Accept-Language header ('fr-CA,fr;q=0.9,en;q=0.8'). */
export function fromAcceptLanguage(header: string | undefined, locales: readonly string[]): string | undefined {
  const ranges = (header ?? '')
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(params.find((p) => p.trim().startsWith('q='))?.trim().slice(2) ?? '1');
      return { tag: tag.trim().toLowerCase(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((range) => range.tag && range.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranges) {
    const exact = locales.find((locale) => locale.toLowerCase() === tag);
    if (exact) return exact;
    const primary = locales.find((locale) => locale.toLowerCase() === tag.split('-')[0]);
    if (primary) return primary;
  }
  return undefined;
}

/**
 * Where a visitor arriving on an unprefixed path belongs: the cookie's locale when set (a choice
 * made on this site), else the browser's; null when that is the default locale (no redirect).
 */
export function localeRedirect(
  pathAndQuery: string,
  request: { cookie?: string; acceptLanguage?: string },
  locales: readonly string[],
): string | null {
  if (locales.length < 2) return null;
  const [pathname = '/'] = pathAndQuery.split('?');
  if (splitLocale(pathname, locales).prefixed) return null;
  const fromCookie = readCookie(request.cookie, LOCALE_COOKIE);
  const wanted = fromCookie && locales.includes(fromCookie) ? fromCookie : fromAcceptLanguage(request.acceptLanguage, locales);
  return wanted && wanted !== DEFAULT_LOCALE ? localizePath(pathAndQuery, wanted) : null;
}

/** Saves the visitor's choice for a year (the spec's 365 days). */
export function rememberLocale(locale: string): void {
  document.cookie = `${LOCALE_COOKIE}=${encodeURIComponent(locale)}; Max-Age=${LOCALE_COOKIE_MAX_AGE_S}; Path=/; SameSite=Lax`;
}
