import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlib, gzip, gzipSync } from 'node:zlib';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export type Encoding = 'br' | 'gzip' | 'identity';

/**
 * Brotli quality and gzip level of a page compressed for one response (an uncached render) and of a
 * cache entry's first variants. Chosen by bytes per CPU-millisecond on the level page
 * (bench:pages, docs/benchmarks.md): from brotli 1 to 5 each step saves 2,600 to 22,000 bytes per
 * extra CPU-millisecond, 6 and above under 2,000 (quality 5: 8.4 KB for 36 KB at about 0.45 ms,
 * quality 1 10.4 KB); gzip 6 is where its steps fall under that too.
 */
export const PAGE_BROTLI_QUALITY = 5;
export const PAGE_GZIP_LEVEL = 6;
/** Bodies under this size are sent as they are: compressing them saves about as much as the header costs. */
const MIN_COMPRESSED_BYTES = 1024;

const brotliParams = (body: Buffer, quality: number) => ({
  params: {
    [zlib.BROTLI_PARAM_QUALITY]: quality,
    [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
    // The encoder sizes its tables to the body: 5-10% less CPU on a 30 KB page than the default window's.
    [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
  },
});

/** What a renderer hands the cache: the finished bytes of one response. */
export interface RenderedResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

/**
 * One cached response as immutable bytes in each encoding: identity, gzip and brotli at the page
 * settings when stored, brotli replaced by quality 11 off the request path once the entry is
 * asked for again, so a cached page is never bigger than the same page rendered per request. Each
 * variant has its own strong ETag, derived from the identity bytes.
 */
export interface EncodedResponse {
  status: number;
  contentType: string;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  /** The brotli variant is quality 11 already (see brotliBest). */
  brBest: boolean;
  etags: Record<Encoding, string>;
  storedAt: number;
}

const etagOf = (hash: string, encoding: Encoding, best = false) =>
  encoding === 'identity' ? `"${hash}"` : encoding === 'gzip' ? `"${hash}-gz"` : `"${hash}-br${best ? '11' : ''}"`;

/** The three variants, compressed in the thread pool (gzip and brotli side by side). */
export async function encode(rendered: RenderedResponse, storedAt: number): Promise<EncodedResponse> {
  const hash = createHash('sha256').update(rendered.body).digest('base64url').slice(0, 32);
  // The per-request settings: the first answers from the cache are the same bytes as an uncached page's, never more (gzip 9 is not always smaller than 6).
  const [gzipped, br] = await Promise.all([gzipAsync(rendered.body, { level: PAGE_GZIP_LEVEL }), brotliAsync(rendered.body, brotliParams(rendered.body, PAGE_BROTLI_QUALITY))]);
  return {
    status: rendered.status,
    contentType: rendered.contentType,
    identity: rendered.body,
    gzip: gzipped,
    br,
    brBest: false,
    etags: { identity: etagOf(hash, 'identity'), gzip: etagOf(hash, 'gzip'), br: etagOf(hash, 'br') },
    storedAt,
  };
}

/**
 * Replaces the entry's brotli by quality 11 when that is smaller, made in the thread pool (tens of
 * milliseconds of CPU for a 30 KB page, paid once per entry), with the ETag of those bytes.
 */
export async function brotliBest(response: EncodedResponse): Promise<void> {
  const br = await brotliAsync(response.identity, brotliParams(response.identity, zlib.BROTLI_MAX_QUALITY));
  response.brBest = true;
  // On a small body quality 11 can come out a few bytes bigger: the stored variant stays then.
  if (br.length >= response.br.length) return;
  response.br = br;
  response.etags.br = etagOf(response.etags.identity.slice(1, -1), 'br', true);
}

/**
 * A page rendered for one request, in the encoding Accept-Encoding asks for, compressed in one
 * synchronous call (a thread-pool trip costs more than brotli 5 on a 36 KB page: about 0.45 ms).
 */
export function compressForRequest(body: Buffer, acceptEncoding: string | string[] | undefined): { encoding: Encoding; body: Buffer } {
  const encoding = body.length < MIN_COMPRESSED_BYTES ? 'identity' : chooseEncoding(acceptEncoding);
  if (encoding === 'br') return { encoding, body: brotliCompressSync(body, brotliParams(body, PAGE_BROTLI_QUALITY)) };
  if (encoding === 'gzip') return { encoding, body: gzipSync(body, { level: PAGE_GZIP_LEVEL }) };
  return { encoding, body };
}

export const encodedSize = (response: EncodedResponse) => response.identity.length + response.gzip.length + response.br.length;

/**
 * The encoding to answer with, by Accept-Encoding (RFC 9110 12.5.3): brotli when accepted, else
 * gzip, else identity. A coding with q=0 is refused, `*` stands for the unnamed ones; no header
 * means identity. Identity is the answer of last resort even when refused (no 406).
 */
export function chooseEncoding(acceptEncoding: string | string[] | undefined): Encoding {
  if (acceptEncoding === undefined) return 'identity';
  const weights = new Map<string, number>();
  for (const item of (Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding).split(',')) {
    const [name = '', ...params] = item.split(';').map((part) => part.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const accepts = (coding: string) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip') || accepts('x-gzip')) return 'gzip';
  return 'identity';
}

export function variant(response: EncodedResponse, encoding: Encoding): Buffer {
  return response[encoding];
}

/**
 * The ETag of If-None-Match that names one of this response's variants (any variant, the brotli
 * one before quality 11 replaced it too: they are the same content), or undefined. Weak
 * comparison, as RFC 9110 13.1.2 asks of If-None-Match.
 */
export function matchingEtag(ifNoneMatch: string | undefined, response: EncodedResponse): string | undefined {
  if (!ifNoneMatch) return undefined;
  const hash = response.etags.identity.slice(1, -1);
  const ours = [...Object.values(response.etags), etagOf(hash, 'br', false), etagOf(hash, 'br', true)];
  for (const raw of ifNoneMatch.split(',')) {
    const tag = raw.trim().replace(/^W\//, '');
    if (tag === '*') return response.etags.identity;
    if (ours.includes(tag)) return tag;
  }
  return undefined;
}
