import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export type Encoding = 'br' | 'gzip' | 'identity';

/** What a renderer hands the cache: the finished bytes of one response. */
export interface RenderedResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

/**
 * One cached response as immutable bytes in each encoding: identity and gzip when stored, brotli
 * (slow at its best quality) added off the request path once the entry is asked for again. Each variant has its own strong
 * ETag, derived from the identity bytes.
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

/** Identity and gzip (level 9, in the thread pool); brotli comes later (see brotli). */
export async function encode(rendered: RenderedResponse, storedAt: number): Promise<EncodedResponse> {
  const hash = createHash('sha256').update(rendered.body).digest('base64url').slice(0, 32);
  return {
    status: rendered.status,
    contentType: rendered.contentType,
    identity: rendered.body,
    gzip: await gzipAsync(rendered.body, { level: 9 }),
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

export const encodedSize = (response: EncodedResponse) => response.identity.length + response.gzip.length + (response.br?.length ?? 0);

/**
 * The encoding to answer with, by Accept-Encoding (RFC 9110 12.5.3): brotli when accepted and
 * ready, else gzip, else identity. A coding with q=0 is refused, `*` stands for the unnamed ones;
 * no header means identity. Identity is the answer of last resort even when refused (no 406).
 */
export function chooseEncoding(acceptEncoding: string | string[] | undefined, brotliReady: boolean): Encoding {
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
