import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlib, gzip, gzipSync } from 'node:zlib';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export type Encoding = 'br' | 'gzip' | 'identity';

/**
 * How a page is compressed when it is compressed once per response (an uncached render), and the
 * brotli a cache entry starts with: brotli 5 with a 64 KB window for a client that takes brotli
 * (every browser), gzip 6 for one that takes gzip only (bench:pages, docs/benchmarks.md). On the
 * 23 KB level page: gzip 6 6,104 bytes, brotli 5 5,691, for about 0.14 ms more CPU beside a render
 * of 2-3 ms: some 3,000 bytes saved per millisecond, more than a 10 Mbit/s link carries in one (1,250).
 */
const PAGE_GZIP_LEVEL = 6;
const PAGE_BROTLI = { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_LGWIN]: 16 };
/** A variant's ETag: the identity bytes' tag with a suffix naming the encoding (and brotli's quality). */
const variantTag = (identityTag: string, suffix: 'gz' | 'br5' | 'br') => `${identityTag.slice(0, -1)}-${suffix}"`;

/** Bodies under this size are sent as they are: compressing them saves about as much as the header costs. */
const MIN_COMPRESSED_BYTES = 1024;

/** What a renderer hands the cache: the finished bytes of one response. */
export interface RenderedResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

/**
 * One cached response as bytes in each encoding: identity, gzip and brotli 5 (the same bytes as an
 * uncached answer) when stored; brotli 11 (slow) replaces brotli 5 off the request path once the
 * entry is asked for again, so a cached page is never bigger than the same page rendered per
 * request. Each variant has its own strong ETag, derived from the identity bytes.
 */
export interface EncodedResponse {
  status: number;
  contentType: string;
  identity: Buffer;
  gzip: Buffer;
  /** Brotli 5 until the background pass started by the entry's first hit puts brotli 11 here (bestBrotli). */
  br: Buffer;
  bestBrotli: boolean;
  etags: Record<Encoding, string>;
  storedAt: number;
}

/** Identity, gzip and brotli 5 (in the thread pool); brotli 11 comes later (see bestBrotli). */
export async function encode(rendered: RenderedResponse, storedAt: number): Promise<EncodedResponse> {
  const identityTag = `"${createHash('sha256').update(rendered.body).digest('base64url').slice(0, 32)}"`;
  const [gzipped, br] = await Promise.all([gzipAsync(rendered.body, { level: PAGE_GZIP_LEVEL }), brotliAsync(rendered.body, { params: PAGE_BROTLI })]);
  return {
    status: rendered.status,
    contentType: rendered.contentType,
    identity: rendered.body,
    gzip: gzipped,
    br,
    bestBrotli: false,
    etags: { identity: identityTag, gzip: variantTag(identityTag, 'gz'), br: variantTag(identityTag, 'br5') },
    storedAt,
  };
}

/** Brotli at its best quality (11), in the thread pool: seconds of CPU per megabyte, paid once per entry. */
export function bestBrotli(identity: Buffer): Promise<Buffer> {
  return brotliAsync(identity, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
      [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length,
    },
  });
}

/** Puts brotli 11 in place of an entry's brotli 5, under an ETag of its own (different bytes); returns the bytes it added. */
export function upgradeBrotli(response: EncodedResponse, best: Buffer): number {
  const added = best.length - response.br.length;
  response.br = best;
  response.bestBrotli = true;
  response.etags.br = variantTag(response.etags.identity, 'br');
  return added;
}

/**
 * A page rendered for one request, compressed in one synchronous call (cheaper than a trip through
 * the thread pool at this size): brotli 5 when the client takes brotli, else gzip 6.
 */
export function compressForRequest(body: Buffer, acceptEncoding: string | string[] | undefined): { encoding: Encoding; body: Buffer } {
  if (body.length < MIN_COMPRESSED_BYTES) return { encoding: 'identity', body };
  const encoding = chooseEncoding(acceptEncoding);
  if (encoding === 'br') return { encoding, body: brotliCompressSync(body, { params: PAGE_BROTLI }) };
  if (encoding === 'gzip') return { encoding, body: gzipSync(body, { level: PAGE_GZIP_LEVEL }) };
  return { encoding, body };
}

export const encodedSize = (response: EncodedResponse) => response.identity.length + response.gzip.length + response.br.length;

/**
 * What Accept-Encoding allows (RFC 9110 12.5.3): a coding with q=0 is refused, `*` stands for the
 * unnamed ones; no header allows none (identity only).
 */
function acceptedCodings(acceptEncoding: string | string[] | undefined): (coding: string) => boolean {
  if (acceptEncoding === undefined) return () => false;
  const weights = new Map<string, number>();
  for (const item of (Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding).split(',')) {
    const [name = '', ...params] = item.split(';').map((part) => part.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  return (coding) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0;
}

/**
 * The encoding to answer with: brotli when accepted, else gzip, else identity. Identity is the
 * answer of last resort even when refused (no 406).
 */
export function chooseEncoding(acceptEncoding: string | string[] | undefined): Encoding {
  const accepts = acceptedCodings(acceptEncoding);
  if (accepts('br')) return 'br';
  if (accepts('gzip') || accepts('x-gzip')) return 'gzip';
  return 'identity';
}

export function variant(response: EncodedResponse, encoding: Encoding): Buffer {
  return encoding === 'br' ? response.br : encoding === 'gzip' ? response.gzip : response.identity;
}

/**
 * The ETag of If-None-Match that names one of this response's variants (any variant: they are the
 * same content; brotli 5's tag too once brotli 11 replaced it), or undefined. Weak comparison, as
 * RFC 9110 13.1.2 asks of If-None-Match.
 */
export function matchingEtag(ifNoneMatch: string | undefined, response: EncodedResponse): string | undefined {
  if (!ifNoneMatch) return undefined;
  const ours = [...Object.values(response.etags), variantTag(response.etags.identity, 'br5')];
  for (const raw of ifNoneMatch.split(',')) {
    const tag = raw.trim().replace(/^W\//, '');
    if (tag === '*') return response.etags.identity;
    if (ours.includes(tag)) return tag;
  }
  return undefined;
}
