import type { Readable } from 'node:stream';
import type { PageAssets, PageData } from './page-data';

/** What the SSR bridge (src/ssr) hands the React server entry (web/entry-server.tsx). */
export interface RenderInput {
  /** Absolute URL of the page (origin from config, path and query from the request). */
  url: string;
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
   * if they did not exist (the 404 of an unknown path). Checked by the bridge for adminOnly paths only.
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

export interface ServerEntry {
  render(input: RenderInput): Promise<RenderOutput>;
  /**
   * The page cache's key when the page at this path depends only on content (so its HTML may be
   * cached), else null: the path plus only the query parameters its route reads, so `?x=random`
   * shares the page's entry. Cached pages are also rendered from this key, never the raw URL.
   */
  cacheKey(pathAndQuery: string): string | null;
  /** Whether the path is an admin page (its locale prefix aside): only then does the bridge check the session. */
  adminOnly(pathname: string): boolean;
  /**
   * The pattern of the route the path matches, locale prefix aside ('/levels/:id'; '*' when none
   * does): metrics label pages by it, never by the raw path, so unknown paths add no label.
   */
  routePattern(pathname: string): string;
  payload(input: Omit<RenderInput, 'waitForAll'>): Promise<PagePayload>;
  /**
   * Where a visitor on an unprefixed path belongs by locale cookie or browser language, or null.
   * Asked before the page cache, since cached pages do not look at request headers.
   */
  localeRedirect(pathAndQuery: string, request: { cookie?: string; acceptLanguage?: string }): string | null;
  /** The paths of the route table's pages listed in sitemap.xml (in its order): the ones with payments too when they are on. */
  sitemapPaths(payments: boolean): string[];
  /** The page shown when rendering itself failed: plain, with no data and no loaders. */
  renderErrorDocument(input: { assets: PageAssets; status: number }): string;
}
