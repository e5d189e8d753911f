import type { AppConfig } from 'src/config/app-config';
import type { PageMatch } from 'src/contracts/ssr';
import type { AdminAccess } from 'src/modules/auth';
import { NotFoundError } from 'src/platform/errors/app-error';
import type { MetricsService } from 'src/platform/metrics/metrics.service';
import { fakePageData } from 'test/support/fake-page-data';
import { fakeReply, fakeRequest, fakeServerEntry, foundMatch, html } from 'test/support/fake-http';
import { CacheResponder } from './cache-responder';
import { PageCache } from './page-cache';
import { PageMatcher } from './page-matcher';
import { PageRenderer } from './page-renderer';
import { PageService } from './page.service';
import type { ServerEntrySource } from './server-entry-source.port';
import type { SitePageData } from './site-page-data';

const assets = { scripts: [], styles: [], preloads: [] };
const config = { pageCache: true, pageCacheTtlMs: 60_000, http: { publicUrl: 'http://localhost:3000' } } as AppConfig;
const metrics = { pageCacheResult: () => undefined, pageRendered: () => undefined, pageLoaded: () => undefined } as unknown as MetricsService;

/** The page pipeline with a fake server entry and a real page cache; counts the admin lookups. */
function site(entry = fakeServerEntry()) {
  const source = { entry: async () => entry.entry, assets: () => assets, buildId: 'b' } as unknown as ServerEntrySource;
  const data = { data: fakePageData() } as SitePageData;
  const matcher = new PageMatcher(source, data);
  const adminLookups: string[] = [];
  const admins = { isAdmin: async (request: { url: string }) => (adminLookups.push(request.url), true) } as unknown as AdminAccess;
  const cache = new CacheResponder(new PageCache({ maxEntries: 10, maxBytes: 1e6, ttlMs: 60_000 }), metrics);
  const pages = new PageService(matcher, cache, new PageRenderer(source, data, config, metrics), config, admins);
  return { pages, matcher, calls: entry.calls, adminLookups };
}

describe('PageService', () => {
  it('matches a request once: the fast path, the pipeline, the render and the metrics label share the match', async () => {
    const { pages, matcher, calls } = site();
    matcher.preload();
    await matcher.entry();
    // The first request of a page: a fast-path miss (no page headers known yet), then cached and answered.
    const first = fakeRequest('/levels/27?utm_source=mail');
    expect(pages.serveFromCache(first, fakeReply().reply)).toBe(false);
    const answer = fakeReply();
    await pages.serve(first, answer.reply);
    expect(String(answer.sent.body)).toBe('<html>page</html>');
    expect(matcher.label(first)).toBe('/levels/:id');
    expect(calls.match).toEqual(['/levels/27?utm_source=mail']);
    // The second is a fast-path hit, matched once too.
    const second = fakeRequest('/levels/27');
    const hit = fakeReply();
    expect(pages.serveFromCache(second, hit.reply)).toBe(true);
    expect(matcher.label(second)).toBe('/levels/:id');
    expect(calls.match).toEqual(['/levels/27?utm_source=mail', '/levels/27']);
    expect(calls.render).toBe(1);
  });

  it('labels a payload by its page route, matched without locale hints', async () => {
    const { pages, matcher, calls } = site();
    const request = fakeRequest('/levels/27/_payload.json');
    await pages.serve(request, fakeReply().reply);
    expect(matcher.label(request)).toBe('/levels/:id/_payload.json');
    expect(calls.match).toEqual(['/levels/27']);
  });

  it('answers a redirect match before the cache, varying by language only when the visitor\'s language chose it', async () => {
    const redirect = (byVisitorLocale: boolean): PageMatch => ({ kind: 'redirect', status: 302, location: '/fr/levels', byVisitorLocale, pattern: '/levels', adminOnly: false, locale: 'en' });
    const byLocale = site(fakeServerEntry({ match: () => redirect(true) }));
    const localized = fakeReply();
    await byLocale.pages.serve(fakeRequest('/levels', { headers: { cookie: 'locale=fr' } }), localized.reply);
    expect(localized.sent).toMatchObject({ redirect: { location: '/fr/levels', status: 302 }, headers: { vary: 'cookie, accept-language' } });
    const byRule = site(fakeServerEntry({ match: () => redirect(false) }));
    const moved = fakeReply();
    await byRule.pages.serve(fakeRequest('/levels'), moved.reply);
    expect(moved.sent.redirect).toEqual({ location: '/fr/levels', status: 302 });
    expect(moved.sent.headers.vary).toBeUndefined();
    expect(byRule.calls.render).toBe(0);
  });

  it('looks up the session for admin pages only', async () => {
    const admin = site(fakeServerEntry({ match: () => foundMatch({ adminOnly: true, cacheKey: null }) }));
    const answer = fakeReply();
    await admin.pages.serve(fakeRequest('/admin'), answer.reply);
    expect(admin.adminLookups).toEqual(['/admin']);
    expect(answer.sent.headers['cache-control']).toBe('no-store');
    const visitor = site();
    await visitor.pages.serve(fakeRequest('/levels/27'), fakeReply().reply);
    expect(visitor.adminLookups).toEqual([]);
  });

  it('refuses bad targets and unknown API paths without asking the server entry', async () => {
    const { pages, calls } = site();
    const absolute = fakeReply();
    await pages.serve(fakeRequest('http://example.com/'), absolute.reply);
    expect(absolute.sent.status).toBe(400);
    await expect(pages.serve(fakeRequest('/api/v1/nothing'), fakeReply().reply)).rejects.toBeInstanceOf(NotFoundError);
    expect(pages.serveFromCache(fakeRequest('//example.com'), fakeReply().reply)).toBe(false);
    expect(calls.match).toEqual([]);
  });

  it('streams a page whose cache render was not found (its 404 is not stored)', async () => {
    const { pages, calls } = site(fakeServerEntry({ html: () => html('<html>404</html>', 404) }));
    const { reply, sent } = fakeReply();
    await pages.serve(fakeRequest('/levels/99999'), reply);
    expect(sent).toMatchObject({ status: 404, headers: { 'cache-control': 'no-cache' } });
    expect(calls.render).toBe(2);
    expect(calls.match).toHaveLength(1);
  });
});
