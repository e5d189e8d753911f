import { randomBytes } from 'node:crypto';

export interface CachedPage {
  status: number;
  /** The HTML with a placeholder where each response puts its own CSP nonce. */
  html: string;
  etag: string;
  storedAt: number;
}

/**
 * The page as UTF-8 buffers split at each nonce placeholder, so a response is one Buffer.concat
 * with its own nonce instead of a string replace and a fresh encoding.
 */
export function splitAtPlaceholder(html: string, placeholder: string): Buffer[] {
  return html.split(placeholder).map((part) => Buffer.from(part));
}

export function joinWithNonce(parts: Buffer[], nonce: string): Buffer {
  const nonceBytes = Buffer.from(nonce);
  const pieces: Buffer[] = [];
  parts.forEach((part, i) => {
    if (i > 0) pieces.push(nonceBytes);
    pieces.push(part);
  });
  return Buffer.concat(pieces);
}

/**
 * Rendered pages in memory: bounded by count and bytes, least recently used evicted first, one
 * render per miss (concurrent requests for the same page wait for that render), cleared when
 * content is imported. Entries also expire, so other processes pick up an import within `ttlMs`.
 */
export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  private readonly pending = new Map<string, Promise<CachedPage | null>>();
  private bytes = 0;

  constructor(
    private readonly limits: { maxEntries: number; maxBytes: number; ttlMs: number },
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** A fresh entry, or undefined; never renders. */
  peek(key: string): CachedPage | undefined {
    const hit = this.entries.get(key);
    return hit && this.now() - hit.storedAt < this.limits.ttlMs ? hit : undefined;
  }

  async get(key: string, render: () => Promise<CachedPage | null>): Promise<CachedPage | null> {
    const hit = this.entries.get(key);
    if (hit && this.now() - hit.storedAt < this.limits.ttlMs) {
      // Re-insert: Map order is the recency order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    if (hit) this.remove(key);
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight;
    const rendering = render().then(
      (page) => {
        this.pending.delete(key);
        if (page) this.store(key, page);
        return page;
      },
      (error: unknown) => {
        this.pending.delete(key);
        throw error;
      },
    );
    this.pending.set(key, rendering);
    return rendering;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private store(key: string, page: CachedPage): void {
    this.remove(key);
    const size = page.html.length * 2;
    if (size > this.limits.maxBytes) return;
    this.entries.set(key, page);
    this.bytes += size;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.remove(oldest);
    }
  }

  private remove(key: string): void {
    const existing = this.entries.get(key);
    if (!existing) return;
    this.bytes -= existing.html.length * 2;
    this.entries.delete(key);
  }
}

/** Random bytes drawn 4 KB at a time: a nonce per cached response without a system call each. */
let noncePool = Buffer.alloc(0);
let noncePoolOffset = 0;

/** A fresh 128-bit CSP nonce (hex), from the CSPRNG; each pooled byte is used once. */
export function nextNonce(): string {
  if (noncePoolOffset + 16 > noncePool.length) {
    noncePool = randomBytes(4096);
    noncePoolOffset = 0;
  }
  const nonce = noncePool.toString('hex', noncePoolOffset, noncePoolOffset + 16);
  noncePoolOffset += 16;
  return nonce;
}
