import type { FastifyRequest } from 'fastify';
import { parseLevelId } from 'src/contracts/levels';
import type { PageMatch } from 'src/contracts/ssr';
import { isCrawler } from './crawlers';
import { pageTarget } from './page-target';

/** The route pattern of a level's guide page (`level` in web/features/levels/levels.routes.ts). */
export const GUIDE_PAGE_PATTERN = '/levels/:id';

/** Speculative loads say so: `Sec-Purpose: prefetch` (Chromium's speculation rules), `Purpose: prefetch` (older browsers). */
const PREFETCH = /prefetch|prerender/i;

/**
 * The level whose guide page this response showed a reader, or null. A view is a GET of the page's
 * HTML answered 200, or 304 (the reader's browser revalidating its copy shows the page again),
 * from the page cache's fast path or the full pipeline alike. Not views: HEAD (nothing is shown),
 * the page's `_payload.json` (client navigation prefetches it for every link that scrolls into
 * view, so it says nothing about reading), speculative prefetches, redirects and errors, and
 * crawlers (the user agents of src/ssr/crawlers.ts). A number in range with no guide is counted
 * here and dropped when the counts are written. Called for every response: cheap checks first.
 */
export function guideViewOf(request: FastifyRequest, status: number, match: PageMatch | undefined, searchMax: number): number | null {
  if (match?.kind !== 'page' || match.pattern !== GUIDE_PAGE_PATTERN) return null;
  if (request.method !== 'GET' || (status !== 200 && status !== 304)) return null;
  const { headers } = request;
  if (pageTarget(request.url).payload || isCrawler(headers['user-agent'])) return null;
  if (PREFETCH.test(`${headers['sec-purpose'] ?? ''} ${headers.purpose ?? ''}`)) return null;
  return parseLevelId((match.page ?? match.publicPage)?.params.id ?? '', searchMax);
}
