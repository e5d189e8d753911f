import { joinWithNonce, nextNonce, PageCache, splitAtPlaceholder, type CachedPage } from './page-cache';

const page = (html: string, storedAt = 0): CachedPage => ({ status: 200, html, etag: `"${html}"`, storedAt });

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
    expect(new Set(results.map((r) => r?.html))).toEqual(new Set(['a']));
    await cache.get('/levels/27', render);
    expect(renders).toBe(1);
  });

  it('evicts the least recently used page beyond the entry limit', async () => {
    const cache = new PageCache({ maxEntries: 2, maxBytes: 1e6, ttlMs: 1000 }, () => 0);
    await cache.get('a', async () => page('a'));
    await cache.get('b', async () => page('b'));
    await cache.get('a', async () => page('a2'));
    await cache.get('c', async () => page('c'));
    expect(cache.size).toBe(2);
    expect((await cache.get('a', async () => page('fresh')))?.html).toBe('a');
    expect((await cache.get('b', async () => page('b2')))?.html).toBe('b2');
  });

  it('stays within its byte budget', async () => {
    const cache = new PageCache({ maxEntries: 100, maxBytes: 100, ttlMs: 1000 }, () => 0);
    for (const key of ['a', 'b', 'c', 'd']) await cache.get(key, async () => page('x'.repeat(20)));
    expect(cache.size).toBe(2);
  });

  it('renders again after the time to live and after clear()', async () => {
    let now = 0;
    const cache = new PageCache({ maxEntries: 10, maxBytes: 1e6, ttlMs: 100 }, () => now);
    await cache.get('a', async () => page('old', now));
    now = 150;
    expect((await cache.get('a', async () => page('new', now)))?.html).toBe('new');
    cache.clear();
    expect((await cache.get('a', async () => page('newer', now)))?.html).toBe('newer');
  });

  it('does not keep what the renderer declines to cache, nor failures', async () => {
    const cache = new PageCache({ maxEntries: 10, maxBytes: 1e6, ttlMs: 1000 }, () => 0);
    expect(await cache.get('a', async () => null)).toBeNull();
    await expect(cache.get('b', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(cache.size).toBe(0);
  });
});

describe('splitAtPlaceholder and joinWithNonce', () => {
  it('puts the nonce wherever the placeholder was', () => {
    const parts = splitAtPlaceholder('<script nonce="PH">a</script><script nonce="PH">b</script>', 'PH');
    expect(joinWithNonce(parts, 'n0nce').toString()).toBe('<script nonce="n0nce">a</script><script nonce="n0nce">b</script>');
    expect(joinWithNonce(splitAtPlaceholder('no placeholder, é', 'PH'), 'x').toString()).toBe('no placeholder, é');
  });
});

describe('nextNonce', () => {
  it('gives 128-bit hex nonces that never repeat, across pool refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) seen.add(nextNonce());
    expect(seen.size).toBe(1000);
    for (const nonce of seen) expect(nonce).toMatch(/^[0-9a-f]{32}$/);
  });
});
