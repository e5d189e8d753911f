import type { Readable } from 'node:stream';
import type { PageAssets, PageData } from './page-data';

/** What a visitor's request says about their language (a visitor on an unprefixed path may be sent to theirs). */
export interface LocaleHints {
  cookie?: string;
  acceptLanguage?: string;
}

/** What matching reads of the site: its configured redirects and whether accounts are on. */
export type SiteRules = Pick<PageData, 'config' | 'redirects'>;

/** A page route as the bridge sees it (web/route-table.ts lists them). */
export interface MatchedRoute {
  id: string;
  /** '/levels/:id'; '*' for the catch-all. */
  pattern: string;
  /** 'admin': only admins see it; anyone else gets what the path would be without it. */
  access?: 'admin';
  /** The HTML depends only on content, so it may be cached. */
  cache: boolean;
  /** The query parameters the page reads: a cached page's key keeps these only. */
  query: readonly string[];
}

export interface RouteMatch {
  route: MatchedRoute;
  params: Record<string, string>;
}

interface MatchBase {
  /**
   * The pattern of the route the request's path names, locale prefix aside ('/levels/:id'; '*' when
   * none does): metrics label pages by it, never by the raw path, so unknown paths add no label.
   */
  pattern: string;
  /** The path is an admin page: only then does the bridge look up the session. */
  adminOnly: boolean;
  /** The page's language: from the path's prefix, else the default. */
  locale: string;
}

/** Sent elsewhere before any loader runs: by the visitor's language, a configured rule, the default locale's prefix or accounts being off. */
export interface RedirectMatch extends MatchBase {
  kind: 'redirect';
  status: 301 | 302;
  location: string;
  /** Chosen by the visitor's locale cookie or browser language: the answer varies by those headers. */
  byVisitorLocale: boolean;
}

export interface PageFound extends MatchBase {
  kind: 'page';
  /**
   * The page cache's key when the page depends only on content, else null: the path plus only the
   * query parameters its route reads, so `?x=random` shares the page's entry. Cached pages are also
   * rendered from this key, never the raw URL.
   */
  cacheKey: string | null;
  /** The route an admin gets (the first that matches); null when none does. */
  page: RouteMatch | null;
  /** The route anyone else gets: the first match that is not admin-only (the same object when `page` is not). */
  publicPage: RouteMatch | null;
}

/** Where a request goes, found once per request: the bridge and the server entry both read this one result. */
export type PageMatch = RedirectMatch | PageFound;

/** What the SSR bridge (src/ssr) hands the React server entry (web/entry-server.tsx). */
export interface RenderInput {
  /** Absolute URL of the page (origin from config; path and query: the match's cache key, else the request's). */
  url: string;
  /** The request's match: rendering runs its route's loader and never matches again. */
  match: PageFound;
  headers: Record<string, string>;
  /** Crawlers get the complete document; people get the shell as soon as it is ready. */
  waitForAll: boolean;
  data: PageData;
  assets: PageAssets;
  buildId: string;
  /** Aborts the render when the client goes away. */
  signal: AbortSignal;
  /**
   * The visitor is an admin: admin pages (route access 'admin') render. Without it they resolve as
   * if they did not exist (the 404 of an unknown path). Checked by the bridge for adminOnly matches only.
   */
  admin?: boolean;
}

export type RenderOutput =
  | { kind: 'redirect'; status: number; location: string }
  | {
      kind: 'html';
      status: number;
      stream: Readable;
      /** React had finished the whole document when this was resolved (nothing suspended past the shell). */
      complete: boolean;
      errors: unknown[];
    };

/** A page's data as JSON, fetched by client-side navigation instead of the whole page. */
export interface PagePayload {
  routeId: string;
  locale: string;
  params: Record<string, string>;
  status: number;
  data?: unknown;
  error?: { status: number; message?: string };
  redirect?: string;
  /** Server side only, for the log; never serialised to the browser. */
  errors?: unknown[];
}

/** A payload's input: a redirect match is answered in the JSON (client navigation follows it). */
export type PayloadInput = Omit<RenderInput, 'waitForAll' | 'match'> & { match: PageMatch };

export interface ServerEntry {
  /**
   * Where the path and query go, asked once per request before anything else: a redirect, or the
   * route with its parameters, locale and cache key. With hints (pages, not payloads), a visitor on
   * an unprefixed path is first sent to the locale of their cookie or browser.
   */
  match(pathAndQuery: string, site: SiteRules, hints?: LocaleHints): PageMatch;
  render(input: RenderInput): Promise<RenderOutput>;
  payload(input: PayloadInput): Promise<PagePayload>;
  /** The paths of the route table's pages listed in sitemap.xml (in its order): those marked 'with-payments' too while the site's settings have payments on. */
  sitemapPaths(site: SiteRules): string[];
  /** The page data sections each route's loader reads (its route object's `sections`), by route id: the bridge checks them at start. */
  pageSections(): Record<string, readonly string[]>;
  /** The page shown when rendering itself failed: plain, with no data and no loaders. */
  renderErrorDocument(input: { assets: PageAssets; status: number }): string;
}
