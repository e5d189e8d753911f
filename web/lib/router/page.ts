import type { PageData } from 'src/contracts/page-data';
import type { ComponentType } from 'react';
import { DEFAULT_LOCALE, localizePath, splitLocale } from 'web/i18n/locale';
import { compilePattern, type Params } from './match';

/** What a page loader receives on the server: route params, the URL, and the in-process data client. */
export interface LoaderArgs {
  params: Params;
  url: URL;
  data: PageData;
}

/** Runs on the server only; the browser receives its result as the page's payload JSON. */
export type Loader = (args: LoaderArgs) => unknown;

/** What a loader resolves to: the page's data, as its component reads it with useLoaderData<typeof loader>(). */
export type LoaderData<L extends Loader> = Awaited<ReturnType<L>>;

export interface PageRoute {
  id: string;
  /** See compilePattern: '/levels/:id', '/blog/*slug', '*'. */
  path: string;
  /**
   * The page component, loaded on demand: each page is its own chunk, so a level page does not
   * download the blog. Loaded before rendering, on the server and in the browser alike.
   */
  load: () => Promise<ComponentType>;
  /** Its source file ('web/features/levels/level.page.tsx'): the server preloads the chunk built from it. */
  module?: string;
  /**
   * Runs on the server before the page renders; its result is the page's data. Server-only: the
   * client build replaces every `*.loader.ts` module with an empty one (vite.config.mts), so in the
   * browser this is undefined and nothing the loader imports ships.
   */
  loader?: Loader;
  /** The HTML depends only on content (not on the visitor), so the server may cache it. */
  cache?: boolean;
  /**
   * The query parameters the page reads, its loader and its component alike. A cached
   * page is cached, rendered and hydrated under its path plus these only: any other parameter
   * (`?utm_source=`, `?x=random`) is dropped, shares the page's cache entry and never reaches the
   * loader or the component. A page that starts reading a parameter must list it here
   * (web/route-table.spec.tsx fails otherwise).
   */
  query?: readonly string[];
  /**
   * 'admin': an ops page, only for accounts with the admin role; everyone else gets the 404 of an
   * unknown path. Never cached (its HTML depends on who asks).
   */
  access?: 'admin';
  /**
   * Shows the page in this colour mode whatever the visitor's preference (which stays stored), and
   * hides the theme toggle. 'system' forces nothing: it only logs a warning naming the route.
   */
  colorMode?: 'light' | 'dark' | 'system';
  /** A path that reaches the page, for a route whose path has parameters (tests render and audit it). */
  sample?: string;
  /** Listed in sitemap.xml: always, or while payments are on (has_payment). */
  sitemap?: 'always' | 'with-payments';
}

/** A page's route as a feature declares it: `page` is its component module, loaded on demand. */
export type PageDefinition = Omit<PageRoute, 'load'> & { page?: () => Promise<{ default: ComponentType }> };

const Nothing: ComponentType = () => null;

/** One page's route object (web/features/<feature>/<feature>.routes.ts), listed once in web/route-table.ts. */
export function definePage({ page, ...route }: PageDefinition): PageRoute {
  return { ...route, load: page ? () => page().then((m) => m.default) : async () => Nothing };
}

/** The loaders of a route table by route id: what createResolver runs (on the server). */
export const loadersOf = (routes: readonly PageRoute[]): Record<string, Loader> =>
  Object.fromEntries(routes.flatMap((route) => (route.loader ? [[route.id, route.loader]] : [])));

/** A deliberate answer other than 200 (a 404 for a missing level, say), thrown by a loader. */
export class PageError extends Error {
  constructor(
    readonly status: number,
    readonly publicMessage?: string,
  ) {
    super(publicMessage ?? `Page error ${status}`);
  }
}

/** Thrown by a loader to send the visitor elsewhere: a real 301/302 on the server. */
export class PageRedirect extends Error {
  constructor(
    readonly location: string,
    readonly status: 301 | 302 = 302,
  ) {
    super(`Redirect to ${location}`);
  }
}

/** Everything needed to render one page; also the payload JSON of client-side navigation. */
export interface PageState {
  /** Path and query of the page, with its locale prefix if any. */
  url: string;
  /** The page's language: from the path's prefix, else the default. */
  locale: string;
  routeId: string;
  params: Params;
  status: number;
  data?: unknown;
  error?: { status: number; message?: string };
  /** Set instead of data when the page moved (301/302). */
  redirect?: string;
}

/**
 * Matches a URL against the route table, first match wins; the last route should be '*'. Route
 * paths carry no locale: '/fr/levels/27' matches '/levels/:id' in French.
 */
export function createResolver(
  routes: Pick<PageRoute, 'id' | 'path'>[],
  loaders: Record<string, Loader>,
  locales: readonly string[] = [DEFAULT_LOCALE],
) {
  const compiled = routes.map((route) => ({ route, pattern: compilePattern(route.path) }));

  return async function resolvePage(url: URL, data: PageData): Promise<{ state: PageState; failure?: unknown }> {
    const { locale, path, prefixed } = splitLocale(url.pathname, locales);
    const base = { url: url.pathname + url.search, locale };
    const moved = data.redirects.get(url.pathname);
    if (moved) return { state: { ...base, routeId: 'redirect', params: {}, status: 301, redirect: moved } };
    // The default language has no prefix: '/en/levels' is '/levels'.
    if (prefixed && locale === DEFAULT_LOCALE) {
      return { state: { ...base, routeId: 'redirect', params: {}, status: 301, redirect: path + url.search } };
    }
    // Spec: any path containing /auth goes to the (localised) home page while accounts are off.
    if (!data.config.settings.has_login && path.includes('/auth')) {
      return { state: { ...base, routeId: 'redirect', params: {}, status: 302, redirect: localizePath('/', locale) } };
    }
    for (const { route, pattern } of compiled) {
      const params = pattern.match(path);
      if (!params) continue;
      const state: PageState = { ...base, routeId: route.id, params, status: 200 };
      try {
        const load = loaders[route.id];
        if (load) state.data = await load({ params, url, data });
        return { state };
      } catch (error) {
        if (error instanceof PageRedirect) {
          // Loaders name route paths; the visitor stays in their language ('/' → '/fr').
          return { state: { ...state, status: error.status, redirect: localizePath(error.location, locale) } };
        }
        if (error instanceof PageError) {
          return { state: { ...state, status: error.status, error: { status: error.status, message: error.publicMessage } } };
        }
        // Unexpected: the visitor sees 'An error occurred'; the details go to the server log only.
        return { state: { ...state, status: 500, error: { status: 500 } }, failure: error };
      }
    }
    return { state: { ...base, routeId: 'not-found', params: {}, status: 404, error: { status: 404 } } };
  };
}
