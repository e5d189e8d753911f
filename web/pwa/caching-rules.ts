/**
 * What the service worker (web/pwa/sw.ts) keeps for reading offline, and what it never touches:
 * plain functions over Request and Response, shared by the worker, the offline page and their tests.
 *
 * Kept: a guide's page (`/levels/27`, in any language: `/fr/levels/27`) and its `_payload.json`,
 * both also with its steps (`?steps=1`), answered 200 by this build. Never kept, whatever else the rules say: the API, payments, the image
 * tool, admin and account pages (NEVER_CACHED), and anything signed in. The session cookie (`token`,
 * src/modules/auth/adapters/http/session-cookie.ts) is HttpOnly, so a worker never sees it: what a
 * session changes is either an API answer (`/api`, left alone) or marked `Cache-Control: no-store`
 * (SignedInGuard), and a request carrying `Authorization`, or an answer handing out a token, is not
 * kept either. Page HTML never depends on who asks (docs/design.md), so a guide read signed in is the
 * same bytes as signed out.
 */

/** An optional language prefix ('/fr'), as web/i18n/locale.ts splits it. */
const LOCALE = '(/[a-z]{2}(?:-[A-Z]{2})?)?';
/** Paths no cache ever holds, their payloads included: the API, payments, the image tool, admin and account pages. */
const NEVER_CACHED = new RegExp(`^${LOCALE}(?:/api/|/pricing(?:/|$)|/payment/|/billing(?:/|$)|/usage(?:/|$)|/tools/image(?:/|$)|/admin|/auth)`);
/** A guide page or its payload; the number as the site writes it (no leading zero). */
const GUIDE = new RegExp(`^${LOCALE}/levels/([1-9][0-9]{0,5})(/_payload\\.json)?$`);

export const isNeverCached = (pathname: string) => NEVER_CACHED.test(pathname);

/** A guide's page and payload URLs (paths), and where the language prefix puts its neighbours. */
export interface GuideRef {
  number: number;
  /** '' or '/fr'. */
  prefix: string;
  page: string;
  payload: string;
  /** The page with its steps (a guide in puzzles holds them back until `?steps=1`) and its payload. */
  stepsPage: string;
  stepsPayload: string;
}

/** The one query a guide's page or payload is kept with: its steps (web/features/levels/level.loader.ts). */
const STEPS_SEARCH = '?steps=1';

export function guideRef(number: number, prefix = ''): GuideRef {
  const page = `${prefix}/levels/${number}`;
  const payload = `${page}/_payload.json`;
  return { number, prefix, page, payload, stepsPage: page + STEPS_SEARCH, stepsPayload: payload + STEPS_SEARCH };
}

/** The guide a path is the page or payload of, or null: '/levels/27/_payload.json' → level 27. */
export function guideOf(pathname: string): GuideRef | null {
  const match = GUIDE.exec(pathname);
  return match ? guideRef(Number(match[2]), match[1] ?? '') : null;
}

/**
 * What the worker does with a request:
 * - 'guide': network first (the cache only when the network fails or is slow), answers kept;
 * - 'picture': a guide's step picture: the cache first (names are immutable), kept for reading offline;
 * - 'page': any other page the visitor opens: network only, the offline page when the network fails;
 * - 'pass': not answered by the worker at all (the browser asks the network as if there were none):
 *   other origins, anything but GET, the API, anything carrying Authorization, and every request
 *   that is not a page or a guide's payload. Precached files (the build's JS and CSS, the offline
 *   page) are answered before these rules, by workbox-precaching.
 */
export type RequestPolicy = 'guide' | 'page' | 'picture' | 'pass';

export function requestPolicy(request: Pick<Request, 'method' | 'url' | 'mode' | 'headers'>, origin: string): RequestPolicy {
  if (request.method !== 'GET' || request.headers.has('authorization')) return 'pass';
  const url = new URL(request.url);
  if (url.origin !== origin || url.pathname.startsWith('/api/')) return 'pass';
  if (pictureOf(url.pathname) && !url.search) return 'picture';
  const navigation = request.mode === 'navigate';
  if (isNeverCached(url.pathname)) return navigation ? 'page' : 'pass';
  // A guide's payload with another query string is not one the router asks for: left alone.
  if (guideOf(url.pathname) && (navigation || (url.pathname.endsWith('/_payload.json') && (!url.search || url.search === STEPS_SEARCH)))) return 'guide';
  return navigation ? 'page' : 'pass';
}

/** The build whose page a document is: its hydration data names it (web/entry-server.tsx, RootData.buildId). */
export const isPageOfBuild = (html: string, buildId: string) => html.includes(`"buildId":${JSON.stringify(buildId)}`);

/**
 * Whether an answer to a 'guide' request may be kept: a 200 from this origin, meant to be stored
 * (no `no-store` or `private`), handing out no token, HTML or JSON. The HTML must also be this
 * build's (isPageOfBuild, checked by the worker on the body): a page of another build names
 * scripts this worker has not precached. A payload is data, read by whichever build asks.
 */
export function mayStore(request: Pick<Request, 'headers'>, response: Pick<Response, 'status' | 'type' | 'redirected' | 'headers'>): boolean {
  if (request.headers.has('authorization') || response.status !== 200 || response.redirected) return false;
  if (response.type !== 'basic' && response.type !== 'default') return false;
  if (/no-store|private/i.test(response.headers.get('cache-control') ?? '') || response.headers.has('authorization')) return false;
  return /^(text\/html|application\/json)\b/.test(response.headers.get('content-type') ?? '');
}

/** The cache of the guides kept by one build's worker; a new build starts its own and the old one is deleted. */
export const GUIDES_CACHE_PREFIX = 'guides-';
export const guidesCacheName = (buildId: string) => `${GUIDES_CACHE_PREFIX}${buildId}`;

/** A guide's step picture copy (`/guide-images/<hash>-<width>.<avif|webp>`): immutable, named by its content. */
const PICTURE = /^\/guide-images\/([0-9a-f]{12})-(\d{2,4})\.(avif|webp)$/;

/** The picture a path is a copy of (its hash), or null. */
export const pictureOf = (pathname: string): string | null => PICTURE.exec(pathname)?.[1] ?? null;

/**
 * The cache of guide pictures: shared by every build (the names never change meaning), so an update
 * keeps them. Any copy of a picture stands in for another offline (a browser shows AVIF or WebP at
 * any width in the same place; width and height are set by the page).
 */
export const PICTURES_CACHE = 'guide-pictures';
