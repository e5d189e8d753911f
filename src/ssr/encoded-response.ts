import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlib, gzip, gzipSync } from 'node:zlib';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export type Encoding = 'br' | 'gzip' | 'identity';

/**
 * How a page is compressed when it is compressed once per response (an uncached render) and how a
 * cache entry's first variant is stored: gzip 6, the fewest bytes for the CPU in the web process
 * (bench:pages, docs/benchmarks.md). On the 37 KB level page: brotli 1 10.5 KB, brotli 3 9.5 KB at
 * about the same CPU, gzip 6 9.0 KB for 0.2-0.35 ms more, brotli 5 8.5 KB for 0.35-1 ms more again
 * beside a render (fewer bytes per millisecond than a 10 Mbit/s link carries, 1,250). So a browser,
 * which takes both, gets gzip; brotli 5 (a 64 KB window: less CPU, the same bytes at this size) is
 * for a client that takes brotli only.
 */
const PAGE_GZIP_LEVEL = 6;
const PAGE_BROTLI = { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_LGWIN]: 16 };
/** Bodies under this size are sent as they are: compressing them saves about as much as the header costs. */
const MIN_COMPRESSED_BYTES = 1024;

/** What a renderer hands the cache: the finished bytes of one response. */
export interface RenderedResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

/**
 * One cached response as immutable bytes in each encoding: identity and gzip (the same bytes as an
 * uncached answer) when stored, brotli (quality 11, slow) added off the request path once the entry
 * is asked for again, so a cached page is never bigger than the same page rendered per request.
 * Each variant has its own strong ETag, derived from the identity bytes.
 */
export interface EncodedResponse {
  status: number;
  contentType: string;
  identity: Buffer;
  gzip: Buffer;
  /** Undefined until the background brotli pass (started by the entry's first hit) finishes; gzip is served meanwhile. */
  br?: Buffer;
  etags: Record<Encoding, string>;
  storedAt: number;
}

/** Identity and gzip (in the thread pool); brotli comes later (see brotli). */
export async function encode(rendered: RenderedResponse, storedAt: number): Promise<EncodedResponse> {
  const hash = createHash('sha256').update(rendered.body).digest('base64url').slice(0, 32);
  return {
    status: rendered.status,
    contentType: rendered.contentType,
    identity: rendered.body,
    gzip: await gzipAsync(rendered.body, { level: PAGE_GZIP_LEVEL }),
    etags: { identity: `"${hash}"`, gzip: `"${hash}-gz"`, br: `"${hash}-br"` },
    storedAt,
  };
}

/** Brotli at its best quality (11), in the thread pool: seconds of CPU per megabyte, paid once per entry. */
export function brotli(identity: Buffer): Promise<Buffer> {
  return brotliAsync(identity, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
      [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
      [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length,
    },
  });
}

/**
 * A page rendered for one request, compressed in one synchronous call (cheaper than a trip through
 * the thread pool at this size): gzip when the client takes it, brotli 5 when it takes brotli only.
 */
export function compressForRequest(body: Buffer, acceptEncoding: string | string[] | undefined): { encoding: Encoding; body: Buffer } {
  if (body.length < MIN_COMPRESSED_BYTES) return { encoding: 'identity', body };
  const accepts = acceptedCodings(acceptEncoding);
  if (accepts('gzip') || accepts('x-gzip')) return { encoding: 'gzip', body: gzipSync(body, { level: PAGE_GZIP_LEVEL }) };
  if (accepts('br')) return { encoding: 'br', body: brotliCompressSync(body, { params: PAGE_BROTLI }) };
  return { encoding: 'identity', body };
}

export const encodedSize = (response: EncodedResponse) => response.identity.length + response.gzip.length + (response.br?.length ?? 0);

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
 * The stored variant to answer with: brotli when accepted and ready, else gzip, else identity.
 * Identity is the answer of last resort even when refused (no 406).
 */
export function chooseEncoding(acceptEncoding: string | string[] | undefined, brotliReady: boolean): Encoding {
  const accepts = acceptedCodings(acceptEncoding);
  if (brotliReady && accepts('br')) return 'br';
  if (accepts('gzip') || accepts('x-gzip')) return 'gzip';
  return 'identity';
}

export function variant(response: EncodedResponse, encoding: Encoding): Buffer {
  if (encoding === 'br' && response.br) return response.br;
  return encoding === 'gzip' ? response.gzip : response.identity;
}

/**
 * The ETag of If-None-Match that names one of this response's variants (any variant: they are the
 * same content), or undefined. Weak comparison, as RFC 9110 13.1.2 asks of If-None-Match.
 */
export function matchingEtag(ifNoneMatch: string | undefined, response: EncodedResponse): string | undefined {
  if (!ifNoneMatch) return undefined;
  const ours = Object.values(response.etags);
  for (const raw of ifNoneMatch.split(',')) {
    const tag = raw.trim().replace(/^W\//, '');
    if (tag === '*') return response.etags.identity;
    if (ours.includes(tag)) return tag;
  }
  return undefined;
}
