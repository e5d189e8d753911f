import type { PageMatch } from 'src/contracts/ssr';
import { TestAccounts } from 'src/modules/auth/testing/test-accounts';
import { ADMIN_EMAIL, errorOf, testConfig, useControllers } from 'src/platform/http/testing/controller-harness';
import { MetricsService } from 'src/platform/metrics/metrics.service';
import { fakePageData } from 'test/support/fake-page-data';
import { fakeServerEntry, foundMatch } from 'test/support/fake-http';
import { CacheResponder } from './cache-responder';
import { PageCache } from './page-cache';
import { PageMatcher } from './page-matcher';
import { PageRenderer } from './page-renderer';
import { PageController } from './page.controller';
import { PageService } from './page.service';
import { ServerEntrySource } from './server-entry-source.port';
import { SitePageData } from './site-page-data';

/**
 * The pages' catch-all route in process, on a server entry whose answers the test sets (the web
 * bundle's own specs render the real pages; test/page-cache.e2e-spec.ts runs the built site).
 */
describe('PageController (in process)', () => {
  let accounts: TestAccounts;
  let entry: ReturnType<typeof fakeServerEntry>;
  beforeEach(() => {
    accounts = new TestAccounts();
    const redirect: PageMatch = { kind: 'redirect', status: 301, location: '/levels', byVisitorLocale: false, pattern: '/levels-old', adminOnly: false, locale: 'en' };
    entry = fakeServerEntry({ match: (path) => (path === '/levels-old' ? redirect : path.startsWith('/admin') ? foundMatch({ adminOnly: true, cacheKey: null, pattern: '/admin' }) : foundMatch()) });
  });
  const api = useControllers(() => ({
    controllers: [PageController],
    providers: [
      PageService,
      PageMatcher,
      CacheResponder,
      PageRenderer,
      { provide: PageCache, useValue: new PageCache({ maxEntries: 10, maxBytes: 1e6, ttlMs: 60_000 }) },
      { provide: ServerEntrySource, useValue: { entry: async () => entry.entry, assets: () => ({ scripts: [], styles: [], preloads: [] }), buildId: 'b1' } },
      { provide: SitePageData, useValue: { data: fakePageData() } },
      { provide: MetricsService, useValue: { pageCacheResult: () => undefined, pageRendered: () => undefined, pageLoaded: () => undefined } },
      ...accounts.providers(),
    ],
    config: testConfig(),
  }));

  it('serves a page as HTML, rendered once and then from the page cache', async () => {
    for (let i = 0; i < 2; i++) {
      const page = await api.inject({ method: 'GET', url: '/levels/27' });
      expect([page.statusCode, page.headers['content-type'], page.body]).toEqual([200, 'text/html; charset=utf-8', '<html>page</html>']);
    }
    expect(entry.calls.render).toBe(1);
  });

  it("answers a page's payload as JSON", async () => {
    const payload = await api.inject({ method: 'GET', url: '/levels/27/_payload.json' });
    expect([payload.statusCode, payload.json()]).toEqual([200, expect.objectContaining({ routeId: 'level', data: { n: 27 } })]);
  });

  it('follows a redirect of the route table, and refuses a target no page can have', async () => {
    const moved = await api.inject({ method: 'GET', url: '/levels-old' });
    expect([moved.statusCode, moved.headers.location]).toEqual([301, '/levels']);
    const doubleSlash = await api.inject({ method: 'GET', url: '//evil.example/x' });
    expect([doubleSlash.statusCode, doubleSlash.body]).toEqual([404, 'Not Found']);
    const tooLong = await api.inject({ method: 'GET', url: `/levels/${'x'.repeat(9000)}` });
    expect(tooLong.statusCode).toBe(414);
    expect(entry.calls.render).toBe(0);
  });

  it('answers an unknown API path with the API error shape, never a page', async () => {
    const missing = await api.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect([missing.statusCode, errorOf(missing)]).toEqual([404, { code: 'REQUEST.NOT_FOUND', errors: ['No API route GET /api/v1/nothing-here'] }]);
    expect(entry.calls.match).toEqual([]);
  });

  it('renders an admin page for an admin, never stored', async () => {
    const admin = await accounts.signIn(ADMIN_EMAIL);
    const page = await api.inject({ method: 'GET', url: '/admin', headers: admin.headers });
    expect([page.statusCode, page.headers['cache-control']]).toEqual([200, 'no-store']);
    expect(entry.calls.render).toBe(1);
  });
});
