import type { PageData } from 'src/contracts/page-data';
import { LOCALES } from 'web/i18n/locales';
import { PAGES } from 'web/route-table';
import { fakePageData } from 'test/support/fake-page-data';
import { compilePattern } from './match';
import { createMatcher, loadersOf, loadPageState, PageError, PageRedirect, PageVariant, type Loader, type PageRoute } from './page';

const data = fakePageData();

/** A request as the server entry runs it: matched once, then the match's loader run. */
function createResolver(routes: Pick<PageRoute, 'id' | 'path' | 'access'>[], loaders: Record<string, Loader>, locales?: readonly string[]) {
  const match = createMatcher(routes, locales);
  return (url: URL, data: PageData, admin = false) => loadPageState(match(url.pathname + url.search, data), url, data, loaders, admin);
}
const resolve = createResolver(
  [
    { id: 'level', path: '/levels/:id' },
    { id: 'broken', path: '/broken' },
    { id: 'gone', path: '/gone' },
  ],
  {
    level: ({ params }) => ({ level: Number(params.id) }),
    broken: () => {
      throw new Error('connection refused to db.internal:5432');
    },
    gone: () => {
      throw new PageError(404, 'Page Not Found: /gone');
    },
  },
);

describe('resolvePage', () => {
  it('runs the matched route loader with its params', async () => {
    const { state } = await resolve(new URL('http://x/levels/27?tab=hints'), data);
    expect(state).toEqual({ url: '/levels/27?tab=hints', locale: 'en', routeId: 'level', params: { id: '27' }, status: 200, data: { level: 27 } });
  });

  it('turns a PageError into its status and public message', async () => {
    const { state, failure } = await resolve(new URL('http://x/gone'), data);
    expect(state).toMatchObject({ status: 404, error: { status: 404, message: 'Page Not Found: /gone' } });
    expect(failure).toBeUndefined();
  });

  it('answers 500 without detail for an unexpected loader error, handing the error to the caller to log', async () => {
    const { state, failure } = await resolve(new URL('http://x/broken'), data);
    expect(state).toMatchObject({ status: 500, error: { status: 500 } });
    expect(JSON.stringify(state)).not.toContain('db.internal');
    expect((failure as Error).message).toContain('db.internal');
  });

  it('follows the redirect rules before any route', async () => {
    const rules = { ...data, redirects: new Map([['/levels/27', '/levels/28'], ['/old', 'https://example.com/new']]) };
    expect((await resolve(new URL('http://x/levels/27'), rules)).state).toMatchObject({ status: 301, redirect: '/levels/28' });
    expect((await resolve(new URL('http://x/old'), rules)).state).toMatchObject({ status: 301, redirect: 'https://example.com/new' });
  });

  it('sends any path containing /auth home while accounts are off (spec), known page or not', async () => {
    for (const path of ['/auth', '/auth/login', '/auth/anything', '/auth/a/b?x=1', '/x/auth']) {
      expect((await resolve(new URL(`http://x${path}`), data)).state).toMatchObject({ status: 302, redirect: '/' });
    }
    const on = fakePageData({ config: { ...data.config, settings: { ...data.config.settings, has_login: true } } });
    expect((await resolve(new URL('http://x/auth/anything'), on)).state).toMatchObject({ routeId: 'not-found', status: 404 });
  });

  it('answers 404 when no route matches', async () => {
    const { state } = await resolve(new URL('http://x/nowhere'), data);
    expect(state).toMatchObject({ routeId: 'not-found', status: 404 });
  });

  describe('with more than one language', () => {
    const multilingual = createResolver([{ id: 'level', path: '/levels/:id' }], { level: ({ params }) => params }, ['en', 'fr']);

    it('matches a prefixed path in its language, and an unprefixed one in English', async () => {
      await expect(multilingual(new URL('http://x/fr/levels/27'), data)).resolves.toMatchObject({
        state: { routeId: 'level', locale: 'fr', params: { id: '27' }, url: '/fr/levels/27' },
      });
      await expect(multilingual(new URL('http://x/levels/27'), data)).resolves.toMatchObject({ state: { routeId: 'level', locale: 'en' } });
    });

    it("keeps a loader's redirect in the page's language", async () => {
      const moving = createResolver([{ id: 'old', path: '/old' }], { old: () => { throw new PageRedirect('/levels?x=1'); } }, ['en', 'fr']);
      await expect(moving(new URL('http://x/fr/old'), data)).resolves.toMatchObject({ state: { status: 302, redirect: '/fr/levels?x=1' } });
      await expect(moving(new URL('http://x/old'), data)).resolves.toMatchObject({ state: { status: 302, redirect: '/levels?x=1' } });
    });

    it('sends the default language prefix to the unprefixed path, keeping the query', async () => {
      const { state } = await multilingual(new URL('http://x/en/levels/27?x=1'), data);
      expect(state).toMatchObject({ status: 301, redirect: '/levels/27?x=1' });
    });
  });
});

describe('PageVariant', () => {
  it("takes a route id of the table: a misspelt one does not compile, and the variant's page is the one named", async () => {
    // @ts-expect-error -- not a route of web/route-table.ts (the type check fails if RouteId stops being the table's ids)
    expect(new PageVariant('level-mising', {}).routeId).toBe('level-mising');
    const variant = createResolver([{ id: 'level', path: '/levels/:id' }], { level: () => new PageVariant('level-missing', { number: 27 }) });
    const { state } = await variant(new URL('http://x/levels/27'), data);
    expect(state).toMatchObject({ routeId: 'level-missing', params: { id: '27' }, status: 200, data: { number: 27 } });
  });
});

describe('createMatcher', () => {
  const admin = createResolver(
    [
      { id: 'admin', path: '/admin', access: 'admin' },
      { id: 'page', path: '/:slug' },
    ],
    { admin: () => 'ops', page: ({ params }) => params.slug },
  );

  it('resolves an admin page for admins, and for anyone else as the path would be without it', async () => {
    await expect(admin(new URL('http://x/admin'), data, true)).resolves.toMatchObject({ state: { routeId: 'admin', data: 'ops' } });
    await expect(admin(new URL('http://x/admin'), data)).resolves.toMatchObject({ state: { routeId: 'page', data: 'admin' } });
  });

  it('keys, labels and admin-checks the path as it came, and renders the URL as parsed', () => {
    const match = createMatcher(PAGES, LOCALES);
    expect(match('/levels/./27?x=1', data)).toMatchObject({ kind: 'page', pattern: '*', adminOnly: false, cacheKey: null, page: { route: { id: 'level' }, params: { id: '27' } } });
    expect(match('/levels/27?x=1', data)).toMatchObject({ kind: 'page', pattern: '/levels/:id', cacheKey: '/levels/27', page: { route: { id: 'level', cache: true } } });
    expect(match('/admin', data)).toMatchObject({ kind: 'page', pattern: '/admin', adminOnly: true, cacheKey: null, page: { route: { id: 'admin', access: 'admin' } }, publicPage: { route: { id: 'page' }, params: { slug: 'admin' } } });
  });

  it('matches a request once: one pass over the route table, stopping at its route, and the loader matches nothing', async () => {
    const tried: string[] = [];
    const counting = (path: string) => {
      const compiled = compilePattern(path);
      return { pattern: compiled.pattern, match: (pathname: string) => (tried.push(path), compiled.match(pathname)) };
    };
    const match = createMatcher(PAGES, LOCALES, counting)('/levels/27?utm_source=mail', data, { acceptLanguage: 'en' });
    const { state } = await loadPageState(match, new URL('http://localhost/levels/27'), data, loadersOf(PAGES));
    // The fake data has no guide for 27: the level loader shows its variant, the "not covered yet" page, without matching again.
    expect(state).toMatchObject({ routeId: 'level-missing', params: { id: '27' }, status: 200, data: { kind: 'not-covered', number: 27 } });
    expect(match).toMatchObject({ kind: 'page', pattern: '/levels/:id', cacheKey: '/levels/27', page: { route: { id: 'level' } } });
    expect(tried.filter((path) => path === '/levels/:id')).toHaveLength(1);
    expect(new Set(tried).size).toBe(tried.length);
    expect(tried.at(-1)).toBe('/levels/:id');
  });
});
