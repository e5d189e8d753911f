import { ApiExcludeController } from '@nestjs/swagger';
import { createHash, randomBytes } from 'node:crypto';
import { Controller, Get, Logger, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from 'src/config/app-config';
import type { RenderInput, ServerEntry } from 'src/contracts/ssr';
import { AdminAccess } from 'src/modules/auth/auth-guards.module';
import { SiteContentService } from 'src/modules/content/application/site-content.service';
import { ContentImportService } from 'src/modules/levels/application/content-import.service';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from 'src/platform/database/database.errors';
import { NotFoundError } from 'src/platform/errors/app-error';
import { frameworkErrorBody } from 'src/platform/http/framework-errors';
import { MetricsService } from 'src/platform/metrics/metrics.service';
import { isCrawler } from './crawlers';
import { joinWithNonce, nextNonce, PageCache, splitAtPlaceholder, type CachedPage } from './page-cache';
import { ServerEntrySource } from './server-entry.source';
import { ServerPageData } from './server-page-data';

export const PAYLOAD_SUFFIX = '/_payload.json';
const MAX_URL_LENGTH = 8192;
/** Request headers page loaders may read; pages must not depend on anything else (caching). */
const FORWARDED_HEADERS = ['accept-language', 'user-agent'];
/** Cached HTML carries this instead of a nonce; each response swaps in its own. Unguessable per process. */
const NONCE_PLACEHOLDER = randomBytes(16).toString('hex');

/**
 * The SSR bridge: every GET no API route claimed is a page. Runs the route's loader in-process and
 * streams React's HTML into the reply, or answers the page's payload JSON for client navigation.
 * Pages that depend only on content are served from an in-memory cache with an ETag.
 */
@ApiExcludeController()
@Controller()
export class PageController {
  private readonly logger = new Logger('SSR');
  private readonly cache = new PageCache({ maxEntries: 1000, maxBytes: 64 * 1024 * 1024, ttlMs: 60_000 });
  /** Each cached page's bytes, split at the nonce placeholder (see joinWithNonce). */
  private readonly parts = new WeakMap<CachedPage, Buffer[]>();
  /**
   * The response headers of a page (security headers included), taken from the first cached page
   * served through the full pipeline, with the CSP nonces as placeholders. The fast path reuses it.
   */
  private headerTemplate?: { headers: Record<string, string>; scriptNonce: string; styleNonce: string };
  /** The server entry once loaded: the fast path asks it about locale redirects synchronously. */
  private loadedEntry?: ServerEntry;

  constructor(
    private readonly source: ServerEntrySource,
    private readonly pageData: ServerPageData,
    private readonly config: AppConfig,
    levelContent: ContentImportService,
    siteContent: SiteContentService,
    private readonly metrics: MetricsService,
    private readonly admins: AdminAccess,
  ) {
    levelContent.onImported(() => this.cache.clear());
    siteContent.onImported(() => this.cache.clear());
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
    if (isPayload) return this.payload(entry, request, reply, pagePath + search, aborter.signal, admin);
    // A visitor whose cookie or browser asks for another language goes to its prefixed path.
    const localized = entry.localeRedirect(request.url, localeHints(request));
    if (localized) {
      void reply.header('vary', 'cookie, accept-language').redirect(localized, 302);
      return;
    }
    this.loadedEntry = entry;
    if (this.config.pageCache && entry.cacheable(pathname) && (await this.cached(entry, request, reply))) return;
    return this.stream(entry, request, reply, aborter.signal, admin);
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
    } satisfies Omit<RenderInput, 'nonce' | 'waitForAll'>;
  }

  /**
   * Fast path, run before Nest's middleware and routing: a fresh cached page is answered straight
   * away with the same headers as the full pipeline and nonces of its own. Misses go on as usual.
   */
  serveFromCache(request: FastifyRequest, reply: FastifyReply): boolean {
    if (request.method !== 'GET' || !this.headerTemplate || !this.config.pageCache) return false;
    if (this.loadedEntry?.localeRedirect(request.url, localeHints(request)) !== null) return false;
    const page = this.cache.peek(request.url);
    if (!page) return false;
    this.metrics.pageCacheResult('hit');
    const { headers, scriptNonce, styleNonce } = this.headerTemplate;
    const script = nextNonce();
    const style = nextNonce();
    const csp = headers['content-security-policy']?.replace(scriptNonce, script).replace(styleNonce, style);
    void reply.headers(headers).header('x-request-id', request.id).header('etag', page.etag);
    if (request.headers['if-none-match'] === page.etag) {
      reply.removeHeader('content-security-policy');
      void reply.status(304).send();
      return true;
    }
    if (csp) void reply.header('content-security-policy', csp);
    void reply.status(page.status).send(joinWithNonce(this.partsOf(page), script));
    return true;
  }

  /** Serves a cached page (rendering it once on a miss); false when the page cannot be cached. */
  private async cached(entry: ServerEntry, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    let rendered = false;
    const page = await this.cache.get(request.url, () => {
      rendered = true;
      return this.renderForCache(entry, request);
    });
    this.metrics.pageCacheResult(rendered ? 'miss' : 'hit');
    if (!page) return false;
    void reply
      .header('etag', page.etag)
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
      .header('content-type', 'text/html; charset=utf-8');
    this.captureHeaders(reply);
    if (request.headers['if-none-match'] === page.etag) {
      // The browser keeps its copy and that copy's CSP: a new nonce would not match its scripts.
      reply.removeHeader('content-security-policy');
      void reply.status(304).send();
      return true;
    }
    void reply.status(page.status).send(joinWithNonce(this.partsOf(page), reply.cspNonce?.script ?? ''));
    return true;
  }

  private partsOf(page: CachedPage): Buffer[] {
    let parts = this.parts.get(page);
    if (!parts) {
      parts = splitAtPlaceholder(page.html, NONCE_PLACEHOLDER);
      this.parts.set(page, parts);
    }
    return parts;
  }

  private captureHeaders(reply: FastifyReply): void {
    if (this.headerTemplate || !reply.cspNonce) return;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries({ ...reply.raw.getHeaders(), ...reply.getHeaders() })) {
      if (typeof value === 'string' && !['etag', 'x-request-id', 'set-cookie', 'content-length'].includes(name)) headers[name] = value;
    }
    this.headerTemplate = { headers, scriptNonce: reply.cspNonce.script, styleNonce: reply.cspNonce.style };
  }

  private async renderForCache(entry: ServerEntry, request: FastifyRequest): Promise<CachedPage | null> {
    // Not tied to this request: other requests wait for the same render.
    const input: RenderInput = {
      ...this.baseInput(request, request.url, new AbortController().signal),
      headers: {},
      nonce: NONCE_PLACEHOLDER,
      waitForAll: true,
    };
    this.metrics.pageRendered('cache');
    const output = await entry.render(input);
    if (output.kind !== 'html') return null;
    let html = '';
    for await (const chunk of output.stream) html += String(chunk);
    this.logErrors(output.errors, request);
    // Only found pages: 404s for arbitrary paths would churn the cache.
    if (output.status !== 200) return null;
    const etag = `W/"${createHash('sha1').update(html).digest('base64url')}"`;
    return { status: output.status, html, etag, storedAt: Date.now() };
  }

  private async stream(entry: ServerEntry, request: FastifyRequest, reply: FastifyReply, signal: AbortSignal, admin: boolean): Promise<void> {
    const input: RenderInput = {
      ...this.baseInput(request, request.url, signal, admin),
      nonce: reply.cspNonce?.script,
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
        .header('cache-control', admin ? 'no-store' : 'no-cache')
        .send(output.stream);
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
    const { errors, ...payload } = await entry.payload(this.baseInput(request, pagePath, signal, admin));
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

const localeHints = (request: FastifyRequest) => ({
  cookie: request.headers.cookie,
  acceptLanguage: typeof request.headers['accept-language'] === 'string' ? request.headers['accept-language'] : undefined,
});

/** Paths only in logs: query strings may carry emails or tokens. */
const pathOf = (request: FastifyRequest) => splitUrl(request.url)[0];

function splitUrl(url: string): [string, string?] {
  const index = url.indexOf('?');
  return index === -1 ? [url] : [url.slice(0, index), url.slice(index)];
}
