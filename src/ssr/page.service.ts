import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from 'src/config/app-config';
import type { PageMatch, ServerEntry } from 'src/contracts/ssr';
import { AdminAccess } from 'src/modules/auth';
import { NotFoundError } from 'src/platform/errors/app-error';
import { CacheResponder } from './cache-responder';
import { PageMatcher } from './page-matcher';
import { PageRenderer } from './page-renderer';
import { pageTarget, refusalOf, sendRefusal, type PageTarget } from './page-target';

/** Search pages per client: the budget of GET /api/v1/search (search.controller.ts). */
const SEARCH_PAGES = { max: 60, timeWindow: 60_000 };
const isSearch = (match: PageMatch) => match.kind === 'page' && match.pattern === '/search';

/** The SSR catch-all route's pattern in Fastify (Nest registers `@Get('*')` as one of these). */
const isCatchAll = (request: FastifyRequest) => request.routeOptions.url === '*' || request.routeOptions.url === '/*';

/**
 * Every GET no API route claimed is a page: its target checked, matched once, then answered from
 * the page cache (pages that depend only on content, and their payloads) or rendered in-process.
 */
@Injectable()
export class PageService {
  private searchLimit?: ReturnType<FastifyRequest['server']['createRateLimit']>;

  constructor(
    private readonly matcher: PageMatcher,
    private readonly cache: CacheResponder,
    private readonly renderer: PageRenderer,
    private readonly config: AppConfig,
    private readonly admins: AdminAccess,
  ) {}

  async serve(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const refusal = refusalOf(request.url);
    if (refusal) return sendRefusal(request, reply, refusal);
    const aborter = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) aborter.abort();
    });
    const target = pageTarget(request.url);
    // API clients get JSON, never a page, for a route that does not exist.
    if (target.pathname.startsWith('/api/')) throw new NotFoundError(`No API route ${request.method} ${target.pathname}`);
    const entry = await this.matcher.entry();
    const match = this.matcher.of(request, target, entry);
    if (isSearch(match) && (await this.searchLimited(entry, request, reply, target.payload))) return;
    // Admin pages exist for admins only (anyone else gets an unknown path's 404); only their paths look up the session.
    const admin = match.adminOnly && (await this.admins.isAdmin(request));
    if (target.payload) return this.payload(entry, request, reply, match, target, aborter.signal, admin);
    if (match.kind === 'redirect') {
      // Sent by the visitor's cookie or browser language: the answer varies by them.
      if (match.byVisitorLocale) void reply.header('vary', 'cookie, accept-language');
      void reply.redirect(match.location, match.status);
      return;
    }
    // Cached pages render from their key: parameters the route does not read never reach it.
    const key = match.cacheKey;
    if (key !== null && this.config.pageCache && (await this.cache.page(request, reply, key, () => this.renderer.pageForCache(entry, request, match, key)))) return;
    return this.renderer.stream(entry, request, reply, match, key ?? request.url, aborter.signal, admin);
  }

  /**
   * The fast path, run before Nest's middleware and routing (the HTTP adapter's first onRequest
   * hook): a fresh cached page or payload is answered at once with the same headers as the full
   * pipeline. Misses go on as usual, their match kept for the pipeline.
   */
  serveFromCache(request: FastifyRequest, reply: FastifyReply): boolean {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !this.config.pageCache || !isCatchAll(request)) return false;
    // Targets the full pipeline refuses (414, '//') are refused there, even when their key is cached.
    if (refusalOf(request.url)) return false;
    const target = pageTarget(request.url);
    if ((!target.payload && !this.cache.knowsPageHeaders) || target.pathname.startsWith('/api/')) return false;
    const match = this.matcher.ofLoaded(request, target);
    // Search pages are counted per client (searchLimited): every one goes the full way.
    if (match?.kind !== 'page' || match.cacheKey === null || isSearch(match)) return false;
    return this.cache.answerHit(request, reply, match.cacheKey, target.payload);
  }

  /**
   * The search page runs the API's search, a render and a compression per distinct query: the same
   * budget per client as the API (60 a minute), counted in Redis like it. Over it: 429 with
   * Retry-After, the error page (or the payload's JSON error), true.
   */
  private async searchLimited(entry: ServerEntry, request: FastifyRequest, reply: FastifyReply, payload: boolean): Promise<boolean> {
    // Without the rate-limit plugin (a bare Fastify in a unit test) there is nothing to count with.
    if (typeof request.server.createRateLimit !== 'function') return false;
    this.searchLimit ??= request.server.createRateLimit({ ...SEARCH_PAGES, keyGenerator: (r) => `search-page:${r.ip}` });
    const limit = await this.searchLimit(request);
    if (limit.isAllowed || !limit.isExceeded) return false;
    void reply.status(429).header('retry-after', String(limit.ttlInSeconds)).header('cache-control', 'no-store');
    if (payload) void reply.type('application/json; charset=utf-8').send({ status: 429, error: { status: 429 } });
    else void reply.type('text/html; charset=utf-8').send(entry.renderErrorDocument({ assets: this.renderer.assets(), status: 429 }));
    return true;
  }

  private async payload(entry: ServerEntry, request: FastifyRequest, reply: FastifyReply, match: PageMatch, target: PageTarget, signal: AbortSignal, admin: boolean): Promise<void> {
    // Cached like its page, under the page's key; a redirect is answered in the JSON.
    const key = match.kind === 'page' ? match.cacheKey : null;
    if (key !== null && this.config.pageCache && (await this.cache.payload(request, reply, key, () => this.renderer.payloadForCache(entry, request, match, key)))) return;
    return this.renderer.payload(entry, request, reply, match, key ?? target.pagePathAndQuery, signal, admin);
  }
}
