import type { FastifyRequest } from 'fastify';
import type { PageMatch } from 'src/contracts/ssr';
import { GUIDE_PAGE_PATTERN, guideViewOf } from './guide-page-views';

const MAX = 635;
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

const levelMatch = (id: string, pattern = GUIDE_PAGE_PATTERN): PageMatch => {
  const route = { route: { id: 'level', pattern, cache: true, query: [] }, params: { id } };
  return { kind: 'page', pattern, adminOnly: false, locale: 'en', cacheKey: `/levels/${id}`, page: route, publicPage: route };
};
const request = (url: string, headers: Record<string, string> = { 'user-agent': CHROME }, method = 'GET') => ({ url, method, headers }) as unknown as FastifyRequest;

describe('guideViewOf: which responses are guide page views', () => {
  it('counts a GET of the HTML answered 200 or 304 by a browser', () => {
    expect(guideViewOf(request('/levels/27'), 200, levelMatch('27'), MAX)).toBe(27);
    expect(guideViewOf(request('/levels/27?utm_source=x'), 304, levelMatch('27'), MAX)).toBe(27);
    expect(guideViewOf(request('/fr/levels/27'), 200, levelMatch('27'), MAX)).toBe(27);
  });

  it('does not count HEAD, payloads, prefetches, crawlers, other statuses or other pages', () => {
    expect(guideViewOf(request('/levels/27', undefined, 'HEAD'), 200, levelMatch('27'), MAX)).toBeNull();
    expect(guideViewOf(request('/levels/27/_payload.json'), 200, levelMatch('27'), MAX)).toBeNull();
    expect(guideViewOf(request('/levels/27', { 'user-agent': CHROME, 'sec-purpose': 'prefetch;prerender' }), 200, levelMatch('27'), MAX)).toBeNull();
    expect(guideViewOf(request('/levels/27', { 'user-agent': CHROME, purpose: 'prefetch' }), 200, levelMatch('27'), MAX)).toBeNull();
    expect(guideViewOf(request('/levels/27', { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' }), 200, levelMatch('27'), MAX)).toBeNull();
    for (const status of [301, 404, 500, 503]) expect(guideViewOf(request('/levels/27'), status, levelMatch('27'), MAX)).toBeNull();
    expect(guideViewOf(request('/levels/27/report'), 200, levelMatch('27', '/levels/:id/report'), MAX)).toBeNull();
    expect(guideViewOf(request('/api/v1/levels/27'), 200, undefined, MAX)).toBeNull();
  });

  it('counts only level numbers in range (what the page itself accepts)', () => {
    expect(guideViewOf(request('/levels/636'), 200, levelMatch('636'), MAX)).toBeNull();
    expect(guideViewOf(request('/levels/027'), 200, levelMatch('027'), MAX)).toBeNull();
  });
});
