import { fakePageData } from 'test/support/fake-page-data';
import { createResolver, PageError, PageRedirect } from './page';

const data = fakePageData();
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
