import type { FastifyRequest } from 'fastify';
import type { PageMatch } from 'src/contracts/ssr';
import { pageViewOf } from './page-view';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

const match = (id: string, routeId = 'level', pattern = '/levels/:id'): PageMatch => {
  const route = { route: { id: routeId, pattern, cache: true, query: [] }, params: { id } };
  return { kind: 'page', pattern, adminOnly: false, locale: 'en', cacheKey: `/levels/${id}`, page: route, publicPage: route };
};
const request = (url: string, headers: Record<string, string> = { 'user-agent': CHROME }, method = 'GET') => ({ url, method, headers }) as unknown as FastifyRequest;
const watched = (routeId: string) => routeId === 'level';
const viewOf = (req: FastifyRequest, status: number, kept: PageMatch | undefined) => pageViewOf(req, status, kept, watched);

describe('pageViewOf: which responses showed a reader a page of a watched route', () => {
  it('gives the route and its parameters of a GET of the HTML answered 200 or 304 by a browser, from the kept match', () => {
    expect(viewOf(request('/levels/27'), 200, match('27'))).toEqual({ route: expect.objectContaining({ id: 'level' }), params: { id: '27' } });
    expect(viewOf(request('/levels/27?utm_source=x'), 304, match('27'))?.params).toEqual({ id: '27' });
    expect(viewOf(request('/fr/levels/27'), 200, match('27'))?.params).toEqual({ id: '27' });
    // The parameters come from the match, never from the URL again.
    expect(viewOf(request('/levels/27'), 200, match('28'))?.params).toEqual({ id: '28' });
  });

  it('does not count HEAD, payloads, prefetches, crawlers, other statuses, unwatched routes or unmatched requests', () => {
    expect(viewOf(request('/levels/27', undefined, 'HEAD'), 200, match('27'))).toBeNull();
    expect(viewOf(request('/levels/27/_payload.json'), 200, match('27'))).toBeNull();
    expect(viewOf(request('/levels/27', { 'user-agent': CHROME, 'sec-purpose': 'prefetch;prerender' }), 200, match('27'))).toBeNull();
    expect(viewOf(request('/levels/27', { 'user-agent': CHROME, purpose: 'prefetch' }), 200, match('27'))).toBeNull();
    expect(viewOf(request('/levels/27', { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' }), 200, match('27'))).toBeNull();
    for (const status of [301, 404, 500, 503]) expect(viewOf(request('/levels/27'), status, match('27'))).toBeNull();
    expect(viewOf(request('/levels/27/report'), 200, match('27', 'guide-report', '/levels/:id/report'))).toBeNull();
    expect(viewOf(request('/api/v1/levels/27'), 200, undefined)).toBeNull();
  });
});
