import type { FastifyRequest } from 'fastify';
import type { PageMatch, RouteMatch } from 'src/contracts/ssr';
import { isCrawler } from './crawlers';
import { pageTarget } from './page-target';

/** Speculative loads say so: `Sec-Purpose: prefetch` (Chromium's speculation rules), `Purpose: prefetch` (older browsers). */
const PREFETCH = /prefetch|prerender/i;

/**
 * The route (and its parameters) whose page this response showed a reader, from the request's kept
 * match, or null; only routes `watched` (someone listens for their views, PageViews) are checked.
 * A view is a GET of the page's HTML answered 200, or 304 (the reader's browser revalidating its
 * copy shows the page again), from the page cache's fast path or the full pipeline alike. Not
 * views: HEAD (nothing is shown), the page's `_payload.json` (client navigation prefetches it for
 * every link that scrolls into view, so it says nothing about reading), speculative prefetches,
 * redirects and errors, and crawlers (the user agents of src/ssr/crawlers.ts). Called for every
 * response: cheap checks first.
 */
export function pageViewOf(request: FastifyRequest, status: number, match: PageMatch | undefined, watched: (routeId: string) => boolean): RouteMatch | null {
  const shown = match?.kind === 'page' ? (match.page ?? match.publicPage) : null;
  if (!shown || !watched(shown.route.id)) return null;
  if (request.method !== 'GET' || (status !== 200 && status !== 304)) return null;
  const { headers } = request;
  if (pageTarget(request.url).payload || isCrawler(headers['user-agent'])) return null;
  if (PREFETCH.test(`${headers['sec-purpose'] ?? ''} ${headers.purpose ?? ''}`)) return null;
  return shown;
}
