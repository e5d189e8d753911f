import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MetricsService } from 'src/platform/metrics/metrics.service';
import { chooseEncoding, matchingEtag, variant, type EncodedResponse, type RenderedResponse } from './encoded-response';
import { PageCache } from './page-cache';
import { PAYLOAD_SECURITY_HEADERS, payloadHeaders } from './payload-headers';

/** Response headers set per cached response, never taken from the header template. */
const OWN_HEADERS = ['etag', 'x-request-id', 'set-cookie', 'content-length', 'content-type', 'content-encoding', 'vary', 'cache-control'];
/** A page's payload JSON is cached beside its HTML, under the same key. */
const payloadKey = (key: string) => `payload:${key}`;

/**
 * Answers pages and payloads from the page cache (immutable bytes in identity, gzip and brotli, see
 * PageCache): the variant Accept-Encoding asks for, with a strong ETag per variant and 304 for a
 * matching If-None-Match. Also answers fresh hits before Nest (the fast path) with the headers the
 * full pipeline gave the first page it cached.
 */
@Injectable()
export class CacheResponder {
  /**
   * The response headers every page shares (security headers, the CSP included: it has no nonce),
   * taken from the first cached response served through the full pipeline. The fast path reuses it.
   */
  private headerTemplate?: Record<string, string>;

  constructor(
    private readonly cache: PageCache,
    private readonly metrics: MetricsService,
  ) {}

  /** Whether a cached page may be answered before Nest: its headers are known once one page went through the full pipeline. */
  get knowsPageHeaders(): boolean {
    return this.headerTemplate !== undefined;
  }

  /** The fast path: answers a fresh cached page or payload at once, or returns false (a miss goes on as usual). */
  answerHit(request: FastifyRequest, reply: FastifyReply, key: string, payload: boolean): boolean {
    const headers = payload ? PAYLOAD_SECURITY_HEADERS : this.headerTemplate;
    const hit = headers && this.cache.peek(payload ? payloadKey(key) : key);
    if (!hit) return false;
    this.metrics.pageCacheResult('hit');
    void reply.headers(headers).header('x-request-id', request.id);
    this.sendEncoded(request, reply, hit);
    return true;
  }

  /** Serves a cached page, rendering it once on a miss; false when the page cannot be cached (nothing sent). */
  async page(request: FastifyRequest, reply: FastifyReply, key: string, render: () => Promise<RenderedResponse | null>): Promise<boolean> {
    const page = await this.get(key, render);
    if (!page) return false;
    this.captureHeaders(reply);
    this.sendEncoded(request, reply, page);
    return true;
  }

  /** Serves a cached payload under its page's key (the same parameters count, the same import clears it); false as for pages. */
  async payload(request: FastifyRequest, reply: FastifyReply, key: string, render: () => Promise<RenderedResponse | null>): Promise<boolean> {
    const cached = await this.get(payloadKey(key), render);
    if (!cached) return false;
    payloadHeaders(reply);
    this.sendEncoded(request, reply, cached);
    return true;
  }

  private async get(key: string, render: () => Promise<RenderedResponse | null>): Promise<EncodedResponse | null> {
    let rendered = false;
    const response = await this.cache.get(key, () => {
      rendered = true;
      return render();
    });
    this.metrics.pageCacheResult(rendered ? 'miss' : 'hit');
    return response;
  }

  /**
   * Answers with the variant Accept-Encoding asks for, as stored. @fastify/compress leaves a body
   * alone once Content-Encoding is set; the identity variant goes to a client that takes neither
   * coding, and the plugin is told to leave it as it is too (its documented x-no-compression request
   * header), so it never goes out compressed under the identity ETag. 304 for a matching If-None-Match.
   */
  private sendEncoded(request: FastifyRequest, reply: FastifyReply, response: EncodedResponse): void {
    void reply.header('vary', 'accept-encoding').header('cache-control', 'no-cache').header('content-type', response.contentType);
    const known = matchingEtag(request.headers['if-none-match'], response);
    if (known) {
      void reply.header('etag', known).status(304).send();
      return;
    }
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    if (encoding !== 'identity') void reply.header('content-encoding', encoding);
    else request.headers['x-no-compression'] = '1';
    const body = variant(response, encoding);
    void reply.header('etag', response.etags[encoding]).header('content-length', String(body.length)).status(response.status).send(body);
  }

  private captureHeaders(reply: FastifyReply): void {
    if (this.headerTemplate) return;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries({ ...reply.raw.getHeaders(), ...reply.getHeaders() })) {
      if (typeof value === 'string' && !OWN_HEADERS.includes(name)) headers[name] = value;
    }
    this.headerTemplate = headers;
  }
}
