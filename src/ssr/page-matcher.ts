import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { LocaleHints, PageMatch, ServerEntry } from 'src/contracts/ssr';
import { PAYLOAD_SUFFIX, pageTarget, refusalOf, type PageTarget } from './page-target';
import { ServerEntrySource } from './server-entry-source.port';
import { SitePageData } from './site-page-data';

const localeHints = (request: FastifyRequest): LocaleHints => ({
  cookie: request.headers.cookie,
  acceptLanguage: typeof request.headers['accept-language'] === 'string' ? request.headers['accept-language'] : undefined,
});

/**
 * One match per request: the server entry is asked once where a request goes, by the cache's fast
 * path or else by the page pipeline, and the cache, the admin check, rendering, the payload and the
 * metrics label all read that one result (kept with the request).
 */
@Injectable()
export class PageMatcher {
  private readonly matches = new WeakMap<object, PageMatch>();
  /** The server entry once loaded: the fast path and the metrics label ask it synchronously. */
  private loaded?: ServerEntry;

  constructor(
    private readonly source: ServerEntrySource,
    private readonly site: SitePageData,
  ) {}

  /** The server entry (in development a fresh one per request, with Vite's changes). */
  async entry(): Promise<ServerEntry> {
    const entry = await this.source.entry();
    this.loaded = entry;
    return entry;
  }

  /** Loads the server entry ahead of the first request, so that labels and the fast path know it. */
  preload(): void {
    this.entry().catch(() => undefined); // the first page request reports it
  }

  /** The request's match: found once, kept for the rest of the request. Pages are asked with the visitor's locale hints, payloads without. */
  of(request: FastifyRequest, target: PageTarget, entry: ServerEntry): PageMatch {
    let match = this.matches.get(request);
    if (!match) {
      match = entry.match(target.pagePathAndQuery, this.site.data, target.payload ? undefined : localeHints(request));
      this.matches.set(request, match);
    }
    return match;
  }

  /** The request's match if it was matched (a page or a payload), without matching it: for what runs after the response. */
  matched(request: FastifyRequest): PageMatch | undefined {
    return this.matches.get(request);
  }

  /** The request's match when the server entry is loaded (the fast path cannot wait for it), else undefined. */
  ofLoaded(request: FastifyRequest, target: PageTarget): PageMatch | undefined {
    return this.loaded && this.of(request, target, this.loaded);
  }

  /**
   * The metrics label of a page request: its route's pattern ('/levels/:id', a payload's with
   * '/_payload.json' added), never its path; 'page' until the server entry has loaded. A request
   * answered before it was matched (a refused target, an unknown API path) is matched for its label.
   */
  label(request: { url: string }): string {
    const target = pageTarget(request.url);
    let match = this.matches.get(request);
    if (!match) {
      if (!this.loaded) return 'page';
      // An absolute-form target names no page of this site: the catch-all's label, as for any unknown path.
      if (refusalOf(request.url) === 'absolute-form') return '*';
      match = this.loaded.match(target.pagePathAndQuery, this.site.data);
    }
    return target.payload ? `${match.pattern}${PAYLOAD_SUFFIX}` : match.pattern;
  }
}
