import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { EncodedResponse, RenderedResponse } from './encoded-response';
import { PageCache, sitePageCache } from './page-cache';

const page = (html: string): RenderedResponse => ({ status: 200, contentType: 'text/html; charset=utf-8', body: Buffer.from(html) });
const text = (response: { identity: Buffer } | null | undefined) => response?.identity.toString();
/** Brotli 11 is made in the thread pool once a stored entry is asked for again. */
async function brotliMade(response: EncodedResponse): Promise<Buffer> {
  while (!response.bestBrotli) await new Promise((r) => setTimeout(r, 5));
  return response.br;
}

describe('PageCache', () => {
  it('renders once for concurrent requests of the same page', async () => {
    const cache = new PageCache({ maxEntries: 10, maxBytes: 1e6, ttlMs: 1000 }, () => 0);
    let renders = 0;
    const render = async () => {
      renders++;
      await new Promise((r) => setTimeout(r, 5));
      return page('a');
    };
    const results = await Promise.all(Array.from({ length: 10 }, () => cache.get('/levels/27', render)));
    expect(renders).toBe(1);
    expect(new Set(results.map(text))).toEqual(new Set(['a']));
    await cache.get('/levels/27', render);
    expect(renders).toBe(1);
  });

  it('stores identity, gzip and brotli 5 at once, puts brotli 11 in its place in the background once the page is asked again, all of the same bytes', async () => {
    const cache = new PageCache({ maxEntries: 10, maxBytes: 1e6, ttlMs: 1000 }, () => 0);
    const html = `<!DOCTYPE html><p>${'é guide '.repeat(500)}</p>`;
    const stored = (await cache.get('/levels/27', async () => page(html)))!;
    expect(gunzipSync(stored.gzip).toString()).toBe(html);
    const first = stored.br;
    expect(brotliDecompressSync(first).toString()).toBe(html);
    // A URL asked once never pays for quality-11 brotli.
    await new Promise((r) => setTimeout(r, 50));
    expect(stored.bestBrotli).toBe(false);
    expect(stored.br).toBe(first);
    expect(cache.peek('/levels/27')).toBe(stored);
    const br = await brotliMade(stored);
    expect(br).not.toBe(first);
    expect(brotliDecompressSync(br).toString()).toBe(html);
    expect(br.length).toBeLessThanOrEqual(first.length);
    // The same object on every hit: nothing is encoded again per request.
    expect(cache.peek('/levels/27')).toBe(stored);
  });

  it('gives each variant its own strong ETag, which changes with the bytes', async () => {
    const cache = new PageCache({ maxEntries: 10, maxBytes: 1e6, ttlMs: 1000 }, () => 0);
    const a = (await cache.get('a', async () => page('one')))!;
    const b = (await cache.get('b', async () => page('two')))!;
    const same = (await cache.get('c', async () => page('one')))!;
    expect(new Set(Object.values(a.etags)).size).toBe(3);
    for (const etag of Object.values(a.etags)) expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(a.etags.identity).not.toBe(b.etags.identity);
    expect(same.etags).toEqual(a.etags);
  });

  it('evicts the least recently used page beyond the entry limit', async () => {
    const cache = new PageCache({ maxEntries: 2, maxBytes: 1e6, ttlMs: 1000 }, () => 0);
    await cache.get('a', async () => page('a'));
    await cache.get('b', async () => page('b'));
    await cache.get('a', async () => page('a2'));
    await cache.get('c', async () => page('c'));
    expect(cache.size).toBe(2);
    expect(text(await cache.get('a', async () => page('fresh')))).toBe('a');
    expect(text(await cache.get('b', async () => page('b2')))).toBe('b2');
  });

  it('stays within its byte budget, all variants counted', async () => {
    const cache = new PageCache({ maxEntries: 100, maxBytes: 150, ttlMs: 1000 }, () => 0);
    // 20 bytes identity + 23 gzip + 9 brotli 5, then 10 brotli 11: two fit in 150, three do not.
    for (const key of ['a', 'b', 'c', 'd']) {
      await cache.get(key, async () => page('x'.repeat(20)));
      await brotliMade((await cache.get(key, async () => page('unused')))!);
    }
    await new Promise((r) => setTimeout(r, 5));
    expect(cache.size).toBe(2);
    expect(cache.peek('a')).toBeUndefined();
  });

  it('renders again after the time to live and after clear(), and drops a render begun before clear()', async () => {
    let now = 0;
    const cache = new PageCache({ maxEntries: 10, maxBytes: 1e6, ttlMs: 100 }, () => now);
    await cache.get('a', async () => page('old'));
    now = 150;
    expect(text(await cache.get('a', async () => page('new')))).toBe('new');
    cache.clear();
    expect(text(await cache.get('a', async () => page('newer')))).toBe('newer');
    let release!: () => void;
    const slow = cache.get('b', () => new Promise((resolve) => (release = () => resolve(page('before import')))));
    cache.clear();
    release();
    await slow;
    expect(text(await cache.get('b', async () => page('after import')))).toBe('after import');
  });

  it('does not keep what the renderer declines to cache, nor failures', async () => {
    const cache = new PageCache({ maxEntries: 10, maxBytes: 1e6, ttlMs: 1000 }, () => 0);
    expect(await cache.get('a', async () => null)).toBeNull();
    await expect(cache.get('b', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(cache.size).toBe(0);
  });

  it("keeps the guides cached however many distinct search pages are asked for: search pages have a budget of their own", async () => {
    const cache = sitePageCache(60_000, () => 0);
    let renders = 0;
    const render = (html: string) => async () => {
      renders++;
      return page(html);
    };
    for (let n = 1; n <= 50; n++) await cache.get(`/levels/${n}`, render(`guide ${n}`));
    for (let i = 0; i < 1100; i++) {
      await cache.get(`/search?q=made-up-${i}`, render(`search ${i}`));
      await cache.get(`payload:/fr/search?q=made-up-${i}`, render(`{"q":${i}}`));
    }
    renders = 0;
    for (let n = 1; n <= 50; n++) expect(text(await cache.get(`/levels/${n}`, render('again')))).toBe(`guide ${n}`);
    // Before: one budget of 1,000 entries, and the searches had pushed every guide out.
    expect(renders).toBe(0);
    expect(cache.size).toBe(50 + 200);
    // The newest search pages are still there.
    expect(text(cache.peek('/search?q=made-up-1099'))).toBe('search 1099');
  });
});
