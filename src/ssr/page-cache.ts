import { bestBrotli, encode, encodedSize, upgradeBrotli, type EncodedResponse, type RenderedResponse } from './encoded-response';

/**
 * Rendered pages (and their payload JSON) in memory as immutable, pre-encoded bytes: bounded by
 * count and bytes, least recently used evicted first, one render per miss (concurrent requests for
 * the same key wait for that render), cleared when content is imported. Entries also expire, so
 * other processes pick up an import within `ttlMs`. Brotli 11 replaces brotli 5 after an entry is asked again.
 */
export class PageCache {
  private readonly entries = new Map<string, EncodedResponse>();
  private readonly pending = new Map<string, Promise<EncodedResponse | null>>();
  private bytes = 0;
  /** Entries whose brotli 11 variant is being made. */
  private readonly compressing = new WeakSet<EncodedResponse>();
  /** Bumped by clear(): a render begun before an import is not stored after it. */
  private generation = 0;

  /** Keys of their own (search pages): held apart, within a smaller budget, so they never evict the rest. */
  private readonly apart?: { test: (key: string) => boolean; cache: PageCache };

  constructor(
    private readonly limits: { maxEntries: number; maxBytes: number; ttlMs: number },
    private readonly now: () => number = Date.now,
    apart?: { test: (key: string) => boolean; limits: { maxEntries: number; maxBytes: number } },
  ) {
    if (apart) this.apart = { test: apart.test, cache: new PageCache({ ...apart.limits, ttlMs: limits.ttlMs }, now) };
  }

  get size(): number {
    return this.entries.size + (this.apart?.cache.size ?? 0);
  }

  /** A fresh entry, or undefined; never renders (a hit starts its brotli 11 variant, see addBrotli). */
  peek(key: string): EncodedResponse | undefined {
    if (this.apart?.test(key)) return this.apart.cache.peek(key);
    const hit = this.entries.get(key);
    if (!hit || this.now() - hit.storedAt >= this.limits.ttlMs) return undefined;
    this.addBrotli(key, hit);
    return hit;
  }

  async get(key: string, render: () => Promise<RenderedResponse | null>): Promise<EncodedResponse | null> {
    if (this.apart?.test(key)) return this.apart.cache.get(key, render);
    const hit = this.entries.get(key);
    if (hit && this.now() - hit.storedAt < this.limits.ttlMs) {
      // Re-insert: Map order is the recency order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      this.addBrotli(key, hit);
      return hit;
    }
    if (hit) this.remove(key);
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const generation = this.generation;
    const rendering = render()
      .then((rendered) => (rendered ? encode(rendered, this.now()) : null))
      .then(
        (response) => {
          if (this.pending.get(key) === rendering) this.pending.delete(key);
          if (response && generation === this.generation) this.store(key, response);
          return response;
        },
        (error: unknown) => {
          if (this.pending.get(key) === rendering) this.pending.delete(key);
          throw error;
        },
      );
    this.pending.set(key, rendering);
    return rendering;
  }

  clear(): void {
    this.apart?.cache.clear();
    this.generation++;
    this.entries.clear();
    this.pending.clear();
    this.bytes = 0;
  }

  private store(key: string, response: EncodedResponse): void {
    this.remove(key);
    const size = encodedSize(response);
    if (size > this.limits.maxBytes) return;
    this.entries.set(key, response);
    this.bytes += size;
    this.evict();
  }

  /**
   * Brotli at quality 11 costs tens of milliseconds of CPU for a 30 KB page (in the thread pool), so
   * it is made when an entry is asked for again, not when it is stored: a URL asked once (a search
   * with words nobody else types, a made-up `?page=`) never pays for it; brotli 5 serves the first hits.
   */
  private addBrotli(key: string, response: EncodedResponse): void {
    if (response.bestBrotli || this.compressing.has(response)) return;
    this.compressing.add(response);
    void bestBrotli(response.identity).then(
      (best) => {
        const added = upgradeBrotli(response, best);
        // Counted only while the entry is still held (it may have been evicted or cleared meanwhile).
        if (this.entries.get(key) === response) {
          this.bytes += added;
          this.evict();
        }
      },
      () => this.compressing.delete(response), // brotli 5 keeps being served; the next hit tries again
    );
  }

  private evict(): void {
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.remove(oldest);
    }
  }

  private remove(key: string): void {
    const existing = this.entries.get(key);
    if (!existing) return;
    this.bytes -= encodedSize(existing);
    this.entries.delete(key);
  }
}

/** Search pages' cache keys (and their payloads'), with or without a locale prefix. */
export const isSearchKey = (key: string) => /^(?:payload:)?(?:\/[a-z]{2}(?:-[a-z]{2,4})?)?\/search(?:[?#]|$)/i.test(key);

/**
 * The site's page cache: 1,000 entries and 64 MB. Search pages are one entry per distinct query:
 * they get a budget of their own (200 entries, 8 MB), so made-up queries (1,100 of them did) never
 * push the guides out.
 */
export function sitePageCache(ttlMs: number, now: () => number = Date.now): PageCache {
  return new PageCache({ maxEntries: 1000, maxBytes: 64 * 1024 * 1024, ttlMs }, now, {
    test: isSearchKey,
    limits: { maxEntries: 200, maxBytes: 8 * 1024 * 1024 },
  });
}
