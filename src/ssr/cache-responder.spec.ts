import type { MetricsService } from 'src/platform/metrics/metrics.service';
import { fakeReply, fakeRequest } from 'test/support/fake-http';
import { CacheResponder } from './cache-responder';
import { encode, type EncodedResponse, type RenderedResponse } from './encoded-response';
import type { PageCache } from './page-cache';

/** A cache that keeps whatever it is given, forever: what the responder does with hits and misses. */
function fakeCache() {
  const entries = new Map<string, EncodedResponse>();
  const cache = {
    entries,
    peek: (key: string) => entries.get(key),
    async get(key: string, render: () => Promise<RenderedResponse | null>) {
      const hit = entries.get(key);
      if (hit) return hit;
      const rendered = await render();
      if (!rendered) return null;
      const response = await encode(rendered, 0);
      entries.set(key, response);
      return response;
    },
  };
  return cache;
}

function responder() {
  const cache = fakeCache();
  const results: string[] = [];
  const metrics = { pageCacheResult: (result: string) => results.push(result) } as unknown as MetricsService;
  return { cache, results, cacheResponder: new CacheResponder(cache as unknown as PageCache, metrics) };
}

const page = (body: string): RenderedResponse => ({ status: 200, contentType: 'text/html; charset=utf-8', body: Buffer.from(body) });
const PAGE_HEADERS = { 'content-security-policy': "default-src 'self'", 'x-frame-options': 'SAMEORIGIN' };

describe('CacheResponder', () => {
  it('renders a page once on a miss, then answers from the cache with its length and ETag', async () => {
    const { cacheResponder, results } = responder();
    let renders = 0;
    const render = async () => (renders++, page('<html>27</html>'));
    const first = fakeReply({ ...PAGE_HEADERS });
    expect(await cacheResponder.page(fakeRequest('/levels/27'), first.reply, '/levels/27', render)).toBe(true);
    const second = fakeReply({ ...PAGE_HEADERS });
    expect(await cacheResponder.page(fakeRequest('/levels/27'), second.reply, '/levels/27', render)).toBe(true);
    expect(renders).toBe(1);
    expect(results).toEqual(['miss', 'hit']);
    expect(second.sent).toMatchObject({ status: 200, headers: { 'cache-control': 'no-cache', vary: 'accept-encoding', 'content-length': '15', 'content-type': 'text/html; charset=utf-8' } });
    expect(String(second.sent.body)).toBe('<html>27</html>');
    expect(second.sent.headers.etag).toMatch(/^"/);
  });

  it('answers 304 to a matching If-None-Match, and the variant Accept-Encoding asks for', async () => {
    const { cacheResponder } = responder();
    const first = fakeReply();
    await cacheResponder.page(fakeRequest('/'), first.reply, '/', async () => page('<html>home</html>'));
    const etag = first.sent.headers.etag!;
    const again = fakeReply();
    await cacheResponder.page(fakeRequest('/', { headers: { 'if-none-match': etag } }), again.reply, '/', async () => null);
    expect(again.sent).toMatchObject({ status: 304, body: undefined, headers: { etag } });
    const gzipped = fakeReply();
    await cacheResponder.page(fakeRequest('/', { headers: { 'accept-encoding': 'gzip' } }), gzipped.reply, '/', async () => null);
    expect(gzipped.sent.headers['content-encoding']).toBe('gzip');
    expect(gzipped.sent.headers.etag).not.toBe(etag);
  });

  it('returns false and sends nothing for a page that cannot be cached', async () => {
    const { cacheResponder, results } = responder();
    const { reply, sent } = fakeReply();
    expect(await cacheResponder.page(fakeRequest('/levels/99999'), reply, '/levels/99999', async () => null)).toBe(false);
    expect(sent.sent).toBe(false);
    expect(results).toEqual(['miss']);
  });

  it('answers hits before Nest only once a page went through the full pipeline, with that page\'s headers', async () => {
    const { cacheResponder, results } = responder();
    const early = fakeReply();
    expect(cacheResponder.knowsPageHeaders).toBe(false);
    expect(cacheResponder.answerHit(fakeRequest('/'), early.reply, '/', false)).toBe(false);
    await cacheResponder.page(fakeRequest('/'), fakeReply({ ...PAGE_HEADERS }).reply, '/', async () => page('<html>home</html>'));
    expect(cacheResponder.knowsPageHeaders).toBe(true);
    const fast = fakeReply();
    expect(cacheResponder.answerHit(fakeRequest('/'), fast.reply, '/', false)).toBe(true);
    expect(fast.sent).toMatchObject({ status: 200, headers: { ...PAGE_HEADERS, 'x-request-id': 'req-1', 'cache-control': 'no-cache' } });
    expect(String(fast.sent.body)).toBe('<html>home</html>');
    expect(cacheResponder.answerHit(fakeRequest('/other'), fakeReply().reply, '/other', false)).toBe(false);
    expect(results).toEqual(['miss', 'hit']);
  });

  it('keeps a payload beside its page under the same key, with the payload\'s own security headers', async () => {
    const { cacheResponder, cache } = responder();
    const json = { status: 200, contentType: 'application/json; charset=utf-8', body: Buffer.from('{"routeId":"level"}') };
    const first = fakeReply({ ...PAGE_HEADERS });
    expect(await cacheResponder.payload(fakeRequest('/levels/27/_payload.json'), first.reply, '/levels/27', async () => json)).toBe(true);
    expect([...cache.entries.keys()]).toEqual(['payload:/levels/27']);
    expect(first.sent.headers['x-frame-options']).toBeUndefined();
    expect(first.sent.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    const fast = fakeReply();
    expect(cacheResponder.answerHit(fakeRequest('/levels/27/_payload.json'), fast.reply, '/levels/27', true)).toBe(true);
    expect(fast.sent.headers).toMatchObject({ 'content-security-policy': "default-src 'none'; frame-ancestors 'none'", 'content-type': 'application/json; charset=utf-8' });
  });
});
