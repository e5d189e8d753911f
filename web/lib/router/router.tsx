import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { localizePath, splitLocale } from 'web/i18n/locale';
import type { Loader, LoaderData, PageState, VariantData } from './page';

interface RouterValue {
  page: PageState;
  /** True while the next page's payload is loading. */
  navigating: boolean;
  /** Goes to a route path in the current page's language. */
  navigate(to: string, options?: { replace?: boolean }): Promise<void>;
  /** Prefetches a URL (already localized). */
  prefetch(to: string): void;
}

const RouterContext = createContext<RouterValue | null>(null);

function useRouter(): RouterValue {
  const value = useContext(RouterContext);
  if (!value) throw new Error('No router: render inside <StaticRouter> or <BrowserRouter>');
  return value;
}

export const usePage = () => useRouter().page;
/**
 * The current page's data, typed by its loader: `useLoaderData<typeof loader>()` with a type-only
 * import of the page's `*.loader.ts`. The one cast is here: the data is that loader's result.
 */
export const useLoaderData = <L extends Loader>() => useRouter().page.data as LoaderData<L>;
/** The data of a variant page (PageVariant), typed by the loader that chose it. */
export const useVariantData = <L extends Loader>() => useRouter().page.data as VariantData<L>;
export const useNavigate = () => useRouter().navigate;
export const useNavigating = () => useRouter().navigating;

/** The current location, parsed; `pathname` is the route path: no query, no locale prefix. */
export function useLocation() {
  const { url, locale } = useRouter().page;
  return useMemo(() => {
    const u = new URL(url, 'http://localhost');
    return { pathname: splitLocale(u.pathname, [locale]).path, search: u.search };
  }, [url, locale]);
}

/** The server renders one fixed page. */
export function StaticRouter({ page, children }: { page: PageState; children: ReactNode }) {
  const value = useMemo<RouterValue>(
    () => ({ page, navigating: false, navigate: async () => undefined, prefetch: () => undefined }),
    [page],
  );
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

/** `/levels/27?x=1` → `/levels/27/_payload.json?x=1`; the home page's is `/_payload.json`. */
export function payloadUrl(to: string): string {
  const url = new URL(to, window.location.origin);
  return `${url.pathname.replace(/\/+$/, '')}/_payload.json${url.search}`;
}

const MAX_PENDING_PREFETCHES = 4;
/** Prefetches waiting for a free slot; more links than this in view are not prefetched. */
const MAX_QUEUED_PREFETCHES = 32;
/** The page on screen. */
const isHere = (to: string) => payloadUrl(to) === payloadUrl(window.location.pathname + window.location.search);

const isChunkError = (error: unknown) =>
  error instanceof Error && /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(error.message);

/**
 * Client-side navigation: fetches the next page's payload JSON, then swaps page and URL together,
 * so a page never renders with another page's data. Back and forward do the same.
 */
export function BrowserRouter({
  initial,
  loadPage,
  fullLoadFirst = () => false,
  onChunkError = () => false,
  children,
}: {
  initial: PageState;
  /** Loads a route's component chunk; awaited with the payload before the page changes. */
  loadPage: (routeId: string) => Promise<void>;
  /** True when the next navigation should be a full page load (a new build was deployed). */
  fullLoadFirst?: () => boolean;
  /** A page chunk failed to load: true when it reloaded the page. */
  onChunkError?: () => boolean;
  children: ReactNode;
}) {
  const [page, setPage] = useState(initial);
  const [navigating, setNavigating] = useState(false);
  const cache = useRef(new Map<string, Promise<PageState>>());
  const pending = useRef(0);
  const queued = useRef<string[]>([]);
  const latest = useRef(0);
  const scrollTarget = useRef<string | null>(null);

  const load = useCallback((to: string): Promise<PageState> => {
    const key = payloadUrl(to);
    let entry = cache.current.get(key);
    if (!entry) {
      entry = fetch(key, { headers: { accept: 'application/json' } }).then(async (response) => {
        const body = (await response.json().catch(() => null)) as Omit<PageState, 'url'> | null;
        if (!body) throw new Error(`Payload of ${to} answered ${response.status}`);
        await loadPage(body.routeId);
        const url = new URL(to, window.location.origin);
        return { ...body, url: url.pathname + url.search };
      });
      cache.current.set(key, entry);
      // A prefetched payload serves the next click; after that, the server is asked again.
      entry.then(
        () => setTimeout(() => cache.current.delete(key), 30_000),
        () => cache.current.delete(key),
      );
    }
    return entry;
  }, [loadPage]);

  /** Starts queued prefetches while fewer than 4 are pending. */
  const drain = useCallback(() => {
    const run = () => {
      while (pending.current < MAX_PENDING_PREFETCHES && queued.current.length) {
        const next = queued.current.shift()!;
        // Also the page on screen by now (its link was clicked while queued): a reload of it must not find this copy.
        if (cache.current.has(payloadUrl(next)) || isHere(next)) continue;
        pending.current++;
        void load(next)
          .catch(() => undefined)
          .finally(() => {
            pending.current--;
            run();
          });
      }
    };
    run();
  }, [load]);

  const show = useCallback(
    async (to: string, mode: 'push' | 'replace' | 'pop') => {
      if (mode !== 'pop' && fullLoadFirst()) {
        window.location.assign(to);
        return;
      }
      const ticket = ++latest.current;
      setNavigating(true);
      try {
        let next = await load(to);
        cache.current.delete(payloadUrl(to));
        // Redirect rules: an external target is a full page load, an internal one a navigation.
        for (let hops = 0; next.redirect && hops < 5; hops++) {
          const target = new URL(next.redirect, window.location.origin);
          if (target.origin !== window.location.origin) {
            window.location.assign(target.href);
            return;
          }
          to = target.pathname + target.search + target.hash;
          if (mode === 'pop') mode = 'replace';
          next = await load(to);
        }
        if (ticket !== latest.current) return;
        const hash = new URL(to, window.location.origin).hash;
        if (mode === 'push') window.history.pushState(null, '', to);
        if (mode === 'replace') window.history.replaceState(null, '', to);
        scrollTarget.current = mode === 'pop' ? null : hash || 'top';
        startTransition(() => setPage(next));
      } catch (error) {
        if (ticket !== latest.current) return;
        // A chunk of an older build is gone: reload (at most once per 10 s). Otherwise, offline
        // or unreachable: let the browser try a full load.
        if (isChunkError(error)) onChunkError();
        else window.location.assign(to);
      } finally {
        if (ticket === latest.current) setNavigating(false);
      }
    },
    [load, fullLoadFirst, onChunkError],
  );

  useEffect(() => {
    const onPop = () => void show(window.location.pathname + window.location.search, 'pop');
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [show]);

  // After a navigation commits: to the hash target when there is one, else to the top.
  useLayoutEffect(() => {
    const target = scrollTarget.current;
    scrollTarget.current = null;
    if (!target) return;
    const element = target !== 'top' ? document.getElementById(decodeURIComponent(target.slice(1))) : null;
    if (element) element.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [page]);

  const value = useMemo<RouterValue>(
    () => ({
      page,
      navigating,
      navigate: (to, options) => show(localizePath(to, page.locale), options?.replace ? 'replace' : 'push'),
      prefetch: (to) => {
        // A link to the page on screen (breadcrumb, footer) has nothing to prefetch.
        if (isHere(to) || cache.current.has(payloadUrl(to)) || queued.current.includes(to) || queued.current.length >= MAX_QUEUED_PREFETCHES) return;
        queued.current.push(to);
        drain();
      },
    }),
    [page, navigating, show, drain],
  );
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string; replace?: boolean };

/** One observer for every link: a link that scrolls into view prefetches its page once. */
const visibleCallbacks = new WeakMap<Element, () => void>();
let viewportObserver: IntersectionObserver | undefined;
function observeOnce(element: Element, onVisible: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') return () => undefined;
  viewportObserver ??= new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      viewportObserver!.unobserve(entry.target);
      visibleCallbacks.get(entry.target)?.();
    }
  });
  visibleCallbacks.set(element, onVisible);
  viewportObserver.observe(element);
  return () => viewportObserver?.unobserve(element);
}

/**
 * An <a> that navigates in place (left click without modifiers, same origin) and prefetches the
 * next page's payload and code when it comes into view or is hovered (at most 4 pending at once).
 */
export function Link({ to: routePath, replace, onClick, onMouseEnter, onFocus, target, ...rest }: LinkProps) {
  const { navigate, prefetch, page } = useRouter();
  // Links name route paths; the URL carries the page's language ('/levels' → '/fr/levels').
  const to = localizePath(routePath, page.locale);
  const internal = to.startsWith('/') && !to.startsWith('//');
  const ref = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (!internal || !ref.current) return;
    return observeOnce(ref.current, () => prefetch(to));
  }, [internal, to, prefetch]);
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      !internal ||
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey ||
      (target && target !== '_self')
    ) {
      return;
    }
    event.preventDefault();
    void navigate(to, { replace });
  };
  return (
    <a
      ref={ref}
      href={to}
      target={target}
      onClick={handleClick}
      onMouseEnter={(event) => {
        onMouseEnter?.(event);
        if (internal) prefetch(to);
      }}
      onFocus={(event) => {
        onFocus?.(event);
        if (internal) prefetch(to);
      }}
      {...rest}
    />
  );
}

/** A Link that marks itself `aria-current="page"` when it points at the current path. */
export function NavLink({ end, ...props }: LinkProps & { end?: boolean }) {
  const { pathname } = useLocation();
  const path = props.to.split(/[?#]/)[0]!;
  const current = end ? pathname === path : pathname === path || pathname.startsWith(`${path.replace(/\/$/, '')}/`);
  return <Link aria-current={current ? 'page' : undefined} {...props} />;
}
