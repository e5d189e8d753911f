import type { PageData, PageSectionName } from 'src/contracts/page-data';
import type { LocaleHints, MatchedRoute, PageFound, PageMatch, RouteMatch, SiteRules } from 'src/contracts/ssr';
import type { ComponentType } from 'react';
import { DEFAULT_LOCALE, localeRedirect, localizePath, splitLocale } from 'web/i18n/locale';
import { compilePattern, type Params } from './match';

/** What a page loader receives on the server: route params, the URL, and the in-process data client. */
export interface LoaderArgs {
  params: Params;
  url: URL;
  data: PageData;
}

/** Runs on the server only; the browser receives its result as the page's payload JSON. */
export type Loader = (args: LoaderArgs) => unknown;

/**
 * The route table's ids ('level', 'level-missing', ...), registered by web/route-table.ts, so an id
 * written in code is checked against the table (a misspelt one does not compile).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface RouteRegister {}
export type RouteId = RouteRegister extends { id: infer Id extends string } ? Id : string;

/**
 * A loader's answer that shows another page of the route table at the same URL, with this data: a
 * level with no guide is its own page (`levelMissing`), so the guide page's chunk does not carry it.
 * The variant's route comes after the matched one in the table (it is never matched itself). A
 * loader that returns one declares its return type: the ids come from the table, which holds the
 * loader, so an inferred one would be circular.
 */
export class PageVariant<T> {
  constructor(
    readonly routeId: RouteId,
    readonly data: T,
  ) {}
}

/** What a loader resolves to: the page's data, as its component reads it with useLoaderData<typeof loader>(); a variant's data goes with the variant's page. */
export type LoaderData<L extends Loader> = Exclude<Awaited<ReturnType<L>>, PageVariant<unknown>>;
/** The data a loader hands to a variant page. */
export type VariantData<L extends Loader> = Extract<Awaited<ReturnType<L>>, PageVariant<unknown>>['data'];

export interface PageRoute<Id extends string = string> {
  id: Id;
  /** See compilePattern: '/levels/:id', '/blog/*slug', '*'. */
  path: string;
  /**
   * The page component, loaded on demand: each page is its own chunk, so a level page does not
   * download the blog. Loaded before rendering, on the server and in the browser alike.
   */
  load: () => Promise<ComponentType>;
  /**
   * Runs on the server before the page renders; its result is the page's data. Server-only: the
   * client build replaces every `*.loader.ts` module with an empty one (scripts/route-objects.mts), so in the
   * browser this is undefined and nothing the loader imports ships.
   */
  loader?: Loader;
  /**
   * The page data sections its loader reads (`['levels']` for `data.levels.page(27)`): the loader
   * gets these and no other, and the server refuses to start while one is missing (its module not
   * loaded). Server only.
   */
  sections?: readonly PageSectionName[];
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

/**
 * A page's route as a feature declares it: `page` is its component module, loaded on demand, written
 * `() => import('web/features/<feature>/<name>.page')`: the build reads the route's chunks from that
 * import (scripts/route-objects.mts), so nothing else names the page's file.
 */
export type PageDefinition<Id extends string = string> = Omit<PageRoute<Id>, 'load'> & { page?: () => Promise<{ default: ComponentType }> };

const Nothing: ComponentType = () => null;

/** One page's route object (web/features/<feature>/<feature>.routes.ts), listed once in web/route-table.ts. */
export function definePage<const Id extends string>({ page, ...route }: PageDefinition<Id>): PageRoute<Id> {
  return { ...route, load: page ? () => page().then((m) => m.default) : async () => Nothing };
}

/**
 * The loaders of a route table by route id: what loadPageState runs (on the server). Each gets the
 * site's rules and the sections its route lists only, so a section read but not listed fails in
 * tests (web/route-table.spec.tsx), not when its module is missing from a deployment.
 */
export const loadersOf = (routes: readonly PageRoute[]): Record<string, Loader> =>
  Object.fromEntries(routes.flatMap((route) => (route.loader ? [[route.id, withSections(route.loader, route.sections ?? [])]] : [])));

function withSections(loader: Loader, sections: readonly PageSectionName[]): Loader {
  // One view per page data object (the server has one): nothing is copied per request.
  const views = new WeakMap<PageData, PageData>();
  return (args) => {
    let data = views.get(args.data);
    if (!data) {
      data = { config: args.data.config, redirects: args.data.redirects, ...Object.fromEntries(sections.map((name) => [name, args.data[name]])) } as PageData;
      views.set(args.data, data);
    }
    return loader({ ...args, data });
  };
}

/** The page data sections each route's loader reads, by route id (routes without a loader read none). */
export const sectionsOf = (routes: readonly PageRoute[]): Record<string, readonly PageSectionName[]> =>
  Object.fromEntries(routes.flatMap((route) => (route.loader ? [[route.id, route.sections ?? []]] : [])));

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

/** The cache policy the bridge keys pages by: admin pages never are (their HTML depends on who asks). */
const matchedRoute = (route: RouteEntry): MatchedRoute => ({
  id: route.id,
  pattern: route.path,
  ...(route.access ? { access: route.access } : {}),
  cache: route.cache === true && route.access !== 'admin',
  query: route.query ?? [],
});

type RouteEntry = Pick<PageRoute, 'id' | 'path' | 'cache' | 'query' | 'access'>;
/** Where one path goes among the routes: the first match, and the first that is not admin-only. */
type Scan = Pick<PageFound, 'page' | 'publicPage'>;
/** Page URLs are parsed as the server entry's render reads them (origin from config): the path parses the same under any http origin. */
const ORIGIN = 'http://localhost';

/**
 * Compiles the route table once and returns `match`: where a request goes, found in one pass over
 * the routes, first match wins (the last route should be '*'). Route paths carry no locale:
 * '/fr/levels/27' matches '/levels/:id' in French. `compile` is a seam for tests that count matches.
 */
export function createMatcher(routes: readonly RouteEntry[], locales: readonly string[] = [DEFAULT_LOCALE], compile = compilePattern) {
  const compiled = routes.map((route) => ({ route: matchedRoute(route), pattern: compile(route.path) }));

  function scan(path: string): Scan {
    let page: RouteMatch | null = null;
    for (const { route, pattern } of compiled) {
      // Past an admin page's match only a public route matters (what everyone else gets).
      if (page && route.access === 'admin') continue;
      const params = pattern.match(path);
      if (!params) continue;
      const found = { route, params };
      if (route.access !== 'admin') return { page: page ?? found, publicPage: found };
      page = found;
    }
    return { page, publicPage: null };
  }

  return function match(pathAndQuery: string, site: SiteRules, hints?: LocaleHints): PageMatch {
    const queryAt = pathAndQuery.indexOf('?');
    const rawPath = queryAt === -1 ? pathAndQuery : pathAndQuery.slice(0, queryAt);
    // The path as it came names the label, the admin check and the cache key; what renders is the
    // URL as parsed (dot segments resolved, characters escaped). Nearly always one path, scanned once.
    const named = splitLocale(rawPath, locales);
    const forName = scan(named.path);
    const pattern = forName.page?.route.pattern ?? '*';
    const adminOnly = forName.page?.route.access === 'admin';
    if (hints) {
      // A visitor whose cookie or browser asks for another language goes to its prefixed path.
      const localized = localeRedirect(pathAndQuery, hints, locales);
      if (localized) return { kind: 'redirect', status: 302, location: localized, byVisitorLocale: true, pattern, adminOnly, locale: named.locale };
    }
    const forKey = named.prefixed ? scan(rawPath) : forName;
    const cacheKey = adminOnly ? null : cacheKeyOf(forKey.page?.route, rawPath, queryAt === -1 ? '' : pathAndQuery.slice(queryAt + 1));
    // A cached page renders from its key: parameters the route does not read never reach it.
    const url = new URL(`${ORIGIN}${cacheKey ?? pathAndQuery}`);
    const { locale, path, prefixed } = splitLocale(url.pathname, locales);
    const base = { pattern, adminOnly, locale, byVisitorLocale: false } as const;
    const moved = site.redirects.get(url.pathname);
    if (moved) return { kind: 'redirect', status: 301, location: moved, ...base };
    // The default language has no prefix: '/en/levels' is '/levels'.
    if (prefixed && locale === DEFAULT_LOCALE) return { kind: 'redirect', status: 301, location: path + url.search, ...base };
    // Spec: any path containing /auth goes to the (localised) home page while accounts are off.
    if (!site.config.settings.has_login && path.includes('/auth')) return { kind: 'redirect', status: 302, location: localizePath('/', locale), ...base };
    const found = path === named.path ? forName : path === rawPath ? forKey : scan(path);
    return { kind: 'page', pattern, adminOnly, locale, cacheKey, page: found.page, publicPage: found.publicPage };
  };
}

/**
 * The page cache's key of a path and query: the path plus only the parameters its route reads
 * (PageRoute.query), in the route's order; null when the route is not cached.
 */
function cacheKeyOf(route: MatchedRoute | undefined, pathname: string, query: string): string | null {
  if (!route?.cache) return null;
  if (!query || route.query.length === 0) return pathname;
  const asked = new URLSearchParams(query);
  const kept = new URLSearchParams();
  for (const name of route.query) for (const value of asked.getAll(name)) kept.append(name, value);
  const filtered = kept.toString();
  return filtered ? `${pathname}?${filtered}` : pathname;
}

/**
 * Runs the loader of a request's match: the page's state, for its HTML and its payload alike. The
 * route was found by `match`; nothing here matches again. A visitor who is not an admin gets the
 * match's public page (admin pages resolve as if they did not exist).
 */
export async function loadPageState(
  match: PageMatch,
  url: URL,
  data: PageData,
  loaders: Readonly<Record<string, Loader>>,
  admin = false,
): Promise<{ state: PageState; failure?: unknown }> {
  const base = { url: url.pathname + url.search, locale: match.locale };
  if (match.kind === 'redirect') return { state: { ...base, routeId: 'redirect', params: {}, status: match.status, redirect: match.location } };
  const found = admin ? match.page : match.publicPage;
  if (!found) return { state: { ...base, routeId: 'not-found', params: {}, status: 404, error: { status: 404 } } };
  const { route, params } = found;
  const state: PageState = { ...base, routeId: route.id, params, status: 200 };
  try {
    const load = loaders[route.id];
    const result = load ? await load({ params, url, data }) : undefined;
    if (result instanceof PageVariant) Object.assign(state, { routeId: result.routeId, data: result.data });
    else if (load) state.data = result;
    return { state };
  } catch (error) {
    if (error instanceof PageRedirect) {
      // Loaders name route paths; the visitor stays in their language ('/' → '/fr').
      return { state: { ...state, status: error.status, redirect: localizePath(error.location, match.locale) } };
    }
    if (error instanceof PageError) {
      return { state: { ...state, status: error.status, error: { status: error.status, message: error.publicMessage } } };
    }
    // Unexpected: the visitor sees 'An error occurred'; the details go to the server log only.
    return { state: { ...state, status: 500, error: { status: 500 } }, failure: error };
  }
}
