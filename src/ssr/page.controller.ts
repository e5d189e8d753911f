import { ApiExcludeController } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Controller, Get, Logger, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from 'src/config/app-config';
import type { RenderInput, ServerEntry } from 'src/contracts/ssr';
import { AdminAccess } from 'src/modules/auth/auth-guards.module';
import { ContentImporter } from 'src/platform/content/content-importer';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from 'src/platform/database/database.errors';
import { NotFoundError } from 'src/platform/errors/app-error';
import { frameworkErrorBody } from 'src/platform/http/framework-errors';
import { MetricsService } from 'src/platform/metrics/metrics.service';
import { isCrawler } from './crawlers';
import { chooseEncoding, matchingEtag, variant, type EncodedResponse, type RenderedResponse } from './encoded-response';
import { PageCache } from './page-cache';
import { ServerEntrySource } from './server-entry-source.port';
import { ServerPageData } from './server-page-data';

export const PAYLOAD_SUFFIX = '/_payload.json';
const MAX_URL_LENGTH = 8192;
/** Request headers page loaders may read; pages must not depend on anything else (caching). */
const FORWARDED_HEADERS = ['accept-language', 'user-agent'];
const HTML_TYPE = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
/** Response headers set per cached response, never taken from the header template. */
const OWN_HEADERS = ['etag', 'x-request-id', 'set-cookie', 'content-length', 'content-type', 'content-encoding', 'vary', 'cache-control'];
/**
 * A payload is data for the page's script, never shown as a document, so it carries the security
 * headers that matter for JSON instead of a page's dozen: no sniffing it as HTML, no loading by other
 * sites, and a policy that allows nothing should it be opened as a document. A payload is small, so
 * the page's 1 KB of headers would more than double what each client navigation receives. The
 * Referrer-Policy is the page's (helmet's default): a payload opened as a document leaks no URL either.
 */
const PAYLOAD_SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};
/** The security headers every response gets (helmet's, see http-platform.ts): replaced on payloads. */
const PAGE_SECURITY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];
/** A page's payload JSON is cached beside its HTML, under the same key. */
const payloadKey = (key: string) => `payload:${key}`;

/**
 * The SSR bridge: every GET no API route claimed is a page. Runs the route's loader in-process and
 * streams React's HTML into the reply, or answers the page's payload JSON for client navigation.
 * Pages that depend only on content, and their payloads, are served from an in-memory cache of
 * immutable bytes in identity, gzip and brotli (see PageCache), with a strong ETag per variant.
 */
@ApiExcludeController()
@Controller()
export class PageController {
  private readonly logger = new Logger('SSR');
  private readonly cache: PageCache;
  /**
   * The response headers every page shares (security headers, the CSP included: it has no nonce),
   * taken from the first cached response served through the full pipeline. The fast path reuses it.
   */
  private headerTemplate?: Record<string, string>;
  /** The server entry once loaded: the fast path asks it about locale redirects synchronously. */
  private loadedEntry?: ServerEntry;

  constructor(
    private readonly source: ServerEntrySource,
    private readonly pageData: ServerPageData,
    private readonly config: AppConfig,
    content: ContentImporter,
    private readonly metrics: MetricsService,
    private readonly admins: AdminAccess,
  ) {
    this.cache = new PageCache({ maxEntries: 1000, maxBytes: 64 * 1024 * 1024, ttlMs: config.pageCacheTtlMs });
    content.onImported(() => this.cache.clear());
  }

  @Get('*')
  async page(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (request.url.length > MAX_URL_LENGTH) {
      // API clients get the API's error shape; a page is plain text.
      if (request.url.startsWith('/api/')) void reply.status(414).header('cache-control', 'no-store').send(frameworkErrorBody(414, 'URI Too Long'));
      else void reply.status(414).type('text/plain').send('URI Too Long');
      return;
    }
    // An absolute-form target (`GET http://host/path`, meant for proxies) names no page of this site.
    if (!request.url.startsWith('/')) {
      void reply.status(400).type('text/plain').send('Bad Request');
      return;
    }
    // Nor does a path starting with '//' (URL parsers, the page router's too, read it as a host).
    if (request.url.startsWith('//')) {
      void reply.status(404).type('text/plain').send('Not Found');
      return;
    }
    const aborter = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) aborter.abort();
    });
    const [pathname, search = ''] = splitUrl(request.url);
    // API clients get JSON, never a page, for a route that does not exist.
    if (pathname.startsWith('/api/')) throw new NotFoundError(`No API route ${request.method} ${pathname}`);
    const entry = await this.source.entry();
    const isPayload = pathname.endsWith(PAYLOAD_SUFFIX);
    const pagePath = isPayload ? pathname.slice(0, -PAYLOAD_SUFFIX.length) || '/' : pathname;
    // Admin pages exist for admins only (anyone else gets an unknown path's 404); only their paths look up the session.
    const admin = entry.adminOnly(pagePath) && (await this.admins.isAdmin(request));
    this.loadedEntry = entry;
    if (isPayload) return this.payload(entry, request, reply, pagePath + search, aborter.signal, admin);
    // A visitor whose cookie or browser asks for another language goes to its prefixed path.
    const localized = entry.localeRedirect(request.url, localeHints(request));
    if (localized) {
      void reply.header('vary', 'cookie, accept-language').redirect(localized, 302);
      return;
    }
    // Cached pages render from their key: parameters the route does not read never reach it.
    const key = entry.cacheKey(request.url);
    if (key !== null && this.config.pageCache && (await this.cached(entry, request, reply, key))) return;
    return this.stream(entry, request, reply, aborter.signal, admin, key ?? request.url);
  }

  private baseInput(request: FastifyRequest, pathAndQuery: string, signal: AbortSignal, admin = false) {
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    return {
      url: `${this.config.http.publicUrl}${pathAndQuery}`,
      headers,
      data: this.pageData,
      assets: this.source.assets(),
      buildId: this.source.buildId,
      signal,
      admin,
    } satisfies Omit<RenderInput, 'waitForAll'>;
  }

  /**
   * Fast path, run before Nest's middleware and routing: a fresh cached page or payload is answered
   * straight away with the same headers as the full pipeline. Misses go on as usual.
   */
  serveFromCache(request: FastifyRequest, reply: FastifyReply): boolean {
    const entry = this.loadedEntry;
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !entry || !this.config.pageCache) return false;
    // Targets the full pipeline refuses (414, '//') are refused there, even when their key is cached.
    if (request.url.length > MAX_URL_LENGTH || request.url.startsWith('//')) return false;
    const [pathname, search = ''] = splitUrl(request.url);
    const isPayload = pathname.endsWith(PAYLOAD_SUFFIX);
    let key: string | null;
    if (isPayload) {
      const pageKey = entry.cacheKey((pathname.slice(0, -PAYLOAD_SUFFIX.length) || '/') + search);
      key = pageKey === null ? null : payloadKey(pageKey);
    } else {
      // The page's headers are known once one page went through the full pipeline.
      if (!this.headerTemplate || entry.localeRedirect(request.url, localeHints(request)) !== null) return false;
      key = entry.cacheKey(request.url);
    }
    const hit = key === null ? undefined : this.cache.peek(key);
    if (!hit) return false;
    this.metrics.pageCacheResult('hit');
    void reply.headers(isPayload ? PAYLOAD_SECURITY_HEADERS : this.headerTemplate!).header('x-request-id', request.id);
    this.sendEncoded(request, reply, hit);
    return true;
  }

  /** Serves a cached page (rendering it once on a miss); false when the page cannot be cached. */
  private async cached(entry: ServerEntry, request: FastifyRequest, reply: FastifyReply, key: string): Promise<boolean> {
    let rendered = false;
    const page = await this.cache.get(key, () => {
      rendered = true;
      return this.renderForCache(entry, request, key);
    });
    this.metrics.pageCacheResult(rendered ? 'miss' : 'hit');
    if (!page) return false;
    this.captureHeaders(reply);
    this.sendEncoded(request, reply, page);
    return true;
  }

  /**
   * Answers with the variant Accept-Encoding asks for, as stored. @fastify/compress leaves a body
   * alone once Content-Encoding is set; the identity variant it would brotli-compress for a client
   * that accepts only br while the stored brotli is not ready yet (under the identity ETag), so it
   * is told not to (its documented x-no-compression request header). 304 for a matching If-None-Match.
   */
  private sendEncoded(request: FastifyRequest, reply: FastifyReply, response: EncodedResponse): void {
    void reply.header('vary', 'accept-encoding').header('cache-control', 'no-cache').header('content-type', response.contentType);
    const known = matchingEtag(request.headers['if-none-match'], response);
    if (known) {
      void reply.header('etag', known).status(304).send();
      return;
    }
    const encoding = chooseEncoding(request.headers['accept-encoding'], response.br !== undefined);
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

  private async renderForCache(entry: ServerEntry, request: FastifyRequest, key: string): Promise<RenderedResponse | null> {
    // Not tied to this request: other requests wait for the same render.
    const input: RenderInput = {
      ...this.baseInput(request, key, new AbortController().signal),
      headers: {},
      waitForAll: true,
    };
    this.metrics.pageRendered('cache');
    const output = await entry.render(input);
    if (output.kind !== 'html') return null;
    const body = await readAll(output.stream);
    this.logErrors(output.errors, request);
    // Only found pages: 404s for arbitrary paths would churn the cache.
    if (output.status !== 200) return null;
    return { status: output.status, contentType: HTML_TYPE, body };
  }

  private async renderPayloadForCache(entry: ServerEntry, request: FastifyRequest, key: string): Promise<RenderedResponse | null> {
    const { errors, ...payload } = await entry.payload({ ...this.baseInput(request, key, new AbortController().signal), headers: {} });
    this.logErrors(errors ?? [], request);
    // Found pages only, as for the HTML; anything else is answered uncached.
    if (payload.status !== 200 || errors?.length) return null;
    return { status: 200, contentType: JSON_TYPE, body: Buffer.from(JSON.stringify(payload)) };
  }

  private async stream(entry: ServerEntry, request: FastifyRequest, reply: FastifyReply, signal: AbortSignal, admin: boolean, pathAndQuery: string): Promise<void> {
    const input: RenderInput = {
      ...this.baseInput(request, pathAndQuery, signal, admin),
      waitForAll: isCrawler(request.headers['user-agent']),
    };
    try {
      this.metrics.pageRendered('stream');
      const output = await entry.render(input);
      if (output.kind === 'redirect') {
        void reply.redirect(output.location, output.status);
        return;
      }
      this.logErrors(output.errors, request);
      if (output.errors.some(isDatabaseUnavailable)) {
        // An outage, not a broken page: 503 and Retry-After, so crawlers and people come back.
        output.stream.destroy();
        return this.sendErrorDocument(entry, reply, 503);
      }
      output.stream.on('render-error', (error: unknown) => this.logger.error({ err: error, path: pathOf(request) }, 'Render error'));
      void reply
        .status(output.status)
        .header('content-type', 'text/html; charset=utf-8')
        // An admin page depends on who asks: never stored.
        .header('cache-control', admin ? 'no-store' : 'no-cache');
      // A page React finished in its shell (no page suspends on the server today) is one chunk
      // already: sent whole, it goes out with its length and is compressed in one call. A page
      // still rendering streams, compressed as it comes (one flush per React flush).
      void reply.send(output.complete ? await readAll(output.stream) : output.stream);
    } catch (error) {
      if (signal.aborted) return;
      this.logger.error({ err: error, path: pathOf(request) }, 'Page failed to render');
      this.sendErrorDocument(entry, reply, 500);
    }
  }

  private sendErrorDocument(entry: ServerEntry, reply: FastifyReply, status: 500 | 503): void {
    if (status === 503) void reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
    void reply
      .status(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(entry.renderErrorDocument({ assets: this.source.assets(), status }));
  }

  private async payload(entry: ServerEntry, request: FastifyRequest, reply: FastifyReply, pagePath: string, signal: AbortSignal, admin: boolean): Promise<void> {
    // Cached like its page, under the page's key (so the same parameters count, the same import clears it).
    const key = entry.cacheKey(pagePath);
    if (key !== null && this.config.pageCache) {
      let rendered = false;
      const cached = await this.cache.get(payloadKey(key), () => {
        rendered = true;
        return this.renderPayloadForCache(entry, request, key);
      });
      this.metrics.pageCacheResult(rendered ? 'miss' : 'hit');
      if (cached) {
        payloadHeaders(reply);
        return this.sendEncoded(request, reply, cached);
      }
    }
    payloadHeaders(reply);
    const { errors, ...payload } = await entry.payload(this.baseInput(request, key ?? pagePath, signal, admin));
    this.logErrors(errors ?? [], request);
    if (errors?.some(isDatabaseUnavailable)) {
      void reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).header('cache-control', 'no-store');
      return void reply.type('application/json; charset=utf-8').send({ ...payload, status: 503, error: { status: 503 } });
    }
    const body = JSON.stringify(payload);
    const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
    void reply.header('etag', etag).header('cache-control', admin ? 'no-store' : 'no-cache').header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === etag) {
      void reply.status(304).send();
      return;
    }
    void reply.status(payload.status).type('application/json; charset=utf-8').send(body);
  }

  private logErrors(errors: unknown[], request: FastifyRequest): void {
    for (const error of errors) {
      // An outage is one line, not a stack per request (the error filter does the same for the API).
      if (isDatabaseUnavailable(error)) this.logger.warn({ path: pathOf(request), cause: (error as Error).message }, 'Database unavailable: answered 503');
      else this.logger.error({ err: error, path: pathOf(request) }, 'Page loader failed');
    }
  }
}

/** A payload's security headers in place of the page's ones set on the way in. */
function payloadHeaders(reply: FastifyReply): void {
  for (const name of PAGE_SECURITY_HEADERS) reply.raw.removeHeader(name);
  void reply.headers(PAYLOAD_SECURITY_HEADERS);
}

const localeHints = (request: FastifyRequest) => ({
  cookie: request.headers.cookie,
  acceptLanguage: typeof request.headers['accept-language'] === 'string' ? request.headers['accept-language'] : undefined,
});

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/** Paths only in logs: query strings may carry emails or tokens. */
const pathOf = (request: FastifyRequest) => splitUrl(request.url)[0];

function splitUrl(url: string): [string, string?] {
  const index = url.indexOf('?');
  return index === -1 ? [url] : [url.slice(0, index), url.slice(index)];
}
