import { fromAcceptLanguage, localeRedirect, localizePath, readCookie, splitLocale } from './locale';

describe('locale rules', () => {
  it('reads the locale from the first path segment, only for languages that exist', () => {
    expect(splitLocale('/fr/levels/27', ['en', 'fr'])).toEqual({ locale: 'fr', path: '/levels/27', prefixed: true });
    expect(splitLocale('/fr', ['en', 'fr'])).toEqual({ locale: 'fr', path: '/', prefixed: true });
    expect(splitLocale('/fr/levels', ['en'])).toEqual({ locale: 'en', path: '/fr/levels', prefixed: false });
    expect(splitLocale('/levels', ['en', 'fr'])).toEqual({ locale: 'en', path: '/levels', prefixed: false });
  });

  it('prefixes every language but the default one, keeping query and hash', () => {
    expect(localizePath('/levels?q=door#top', 'en')).toBe('/levels?q=door#top');
    expect(localizePath('/levels?q=door', 'fr')).toBe('/fr/levels?q=door');
    expect(localizePath('/', 'fr')).toBe('/fr');
    expect(localizePath('/?q=1', 'fr')).toBe('/fr?q=1');
    expect(localizePath('https://example.com/x', 'fr')).toBe('https://example.com/x');
  });

  it('picks the best Accept-Language match by quality, then by region-less tag', () => {
    expect(fromAcceptLanguage('de;q=0.5,fr-CA;q=0.9,en;q=0.8', ['en', 'fr'])).toBe('fr');
    expect(fromAcceptLanguage('de,it', ['en', 'fr'])).toBeUndefined();
    expect(fromAcceptLanguage('fr;q=0', ['en', 'fr'])).toBeUndefined();
    expect(fromAcceptLanguage(undefined, ['en', 'fr'])).toBeUndefined();
  });

  it('reads one cookie out of a header', () => {
    expect(readCookie('a=1; locale=fr; b=2', 'locale')).toBe('fr');
    expect(readCookie('xlocale=fr', 'locale')).toBeUndefined();
  });

  it('redirects an unprefixed visit by cookie first, then browser language; never with one language', () => {
    const locales = ['en', 'fr'];
    expect(localeRedirect('/levels?q=1', { cookie: 'locale=fr' }, locales)).toBe('/fr/levels?q=1');
    expect(localeRedirect('/levels', { cookie: 'locale=en', acceptLanguage: 'fr' }, locales)).toBeNull();
    expect(localeRedirect('/levels', { acceptLanguage: 'fr-FR' }, locales)).toBe('/fr/levels');
    expect(localeRedirect('/fr/levels', { cookie: 'locale=en' }, locales)).toBeNull();
    expect(localeRedirect('/levels', { cookie: 'locale=xx', acceptLanguage: 'de' }, locales)).toBeNull();
    expect(localeRedirect('/levels', { cookie: 'locale=fr', acceptLanguage: 'fr' }, ['en'])).toBeNull();
  });
});
