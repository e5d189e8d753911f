/**
 * The service worker, built by vite-plugin-pwa (injectManifest: this file, with the build's file
 * list put in place of self.__WB_MANIFEST) into dist/client/sw.js. One worker per build:
 * - precached (workbox-precaching): the build's JS and CSS, its page chunk map and the offline page (`/offline`), all
 *   fetched at install; files of older builds are deleted when this one takes over (the precache
 *   drops what its list no longer names; cleanupOutdatedCaches, caches of older Workbox versions);
 * - guides read (web/pwa/caching-rules.ts says which requests are guides): network first, the
 *   cached copy when the network fails or takes over 4 s; each guide read is kept with the next two
 *   (web/pwa/offline-guides.ts) in `guides-<build id>`, a cache of this build's own;
 * - step pictures (`/guide-images/`): the cache first, in `guide-pictures` (kept across builds:
 *   their names never change meaning), each kept guide's too; offline, any kept copy of the same
 *   picture stands in for the one asked;
 * - any other page: the network, or the offline page when there is none; the API and every request
 *   that is not a page are left to the browser.
 * A new build's worker waits until the page says so (the "new version" prompt, web/pwa/pwa-client.ts).
 */
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, NetworkOnly } from 'workbox-strategies';
import type { RouteHandlerCallbackOptions, WorkboxPlugin } from 'workbox-core/types';
import { GUIDES_CACHE_PREFIX, guideOf, guidesCacheName, isPageOfBuild, mayStore, pictureOf, PICTURES_CACHE, requestPolicy } from './caching-rules';
import { keepWithFollowing } from './offline-guides';
import { OFFLINE_PATH, PWA_MESSAGES, type PwaMessage } from './pwa-messages';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };
/** The build this worker belongs to (vite.config.mts, from builds/latest.json's id). */
declare const __BUILD_ID__: string;

const GUIDES = guidesCacheName(__BUILD_ID__);
/** A guide is the page and its payload: 200 entries hold the last 100 guides kept. */
const MAX_GUIDE_ENTRIES = 200;
/** The worker's own fetches say so: `Purpose: prefetch` is not a guide view (src/ssr/page-view.ts), and is kept. */
const KEEP_HEADERS = { purpose: 'prefetch' };
const isKeepRequest = (request: Request) => request.headers.get('purpose') === 'prefetch';

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/** Keeps only what caching-rules allows: the reader's own page loads and the worker's own fetches (not the router's link prefetches), HTML of this build only. */
const keepRule: WorkboxPlugin = {
  async cacheWillUpdate({ request, response }) {
    if ((request.mode !== 'navigate' && !isKeepRequest(request)) || !mayStore(request, response)) return null;
    if (response.headers.get('content-type')?.startsWith('text/html') && !isPageOfBuild(await response.clone().text(), __BUILD_ID__)) return null;
    return response;
  },
};

const guides = new NetworkFirst({
  cacheName: GUIDES,
  networkTimeoutSeconds: 4,
  plugins: [keepRule, new ExpirationPlugin({ maxEntries: MAX_GUIDE_ENTRIES, purgeOnQuotaError: true })],
});

/** Step pictures: the cache first (immutable names), as many as 60 guides of six pictures keep. */
const pictures = new CacheFirst({
  cacheName: PICTURES_CACHE,
  plugins: [{ cacheWillUpdate: async ({ response }) => (response.status === 200 ? response : null) }, new ExpirationPlugin({ maxEntries: 360, purgeOnQuotaError: true })],
});

/** Any kept copy of the same picture, for a copy the network cannot bring (another width or format). */
async function anyCopy(url: string): Promise<Response | undefined> {
  const hash = pictureOf(new URL(url).pathname);
  const cache = await caches.open(PICTURES_CACHE);
  const kept = (await cache.keys()).find((request) => pictureOf(new URL(request.url).pathname) === hash);
  return kept && cache.match(kept);
}

/**
 * Fetches a URL into the guides cache unless it is there (or always, `refresh`), resolving once it
 * is written (handleAll's second promise: handle() answers before the cache is). Never throws.
 */
async function keep(url: string, event: ExtendableEvent, refresh: boolean): Promise<void> {
  if (!refresh && (await caches.match(url, { cacheName: GUIDES }))) return;
  const accept = url.endsWith('/_payload.json') ? 'application/json' : 'text/html';
  const [answered, written] = guides.handleAll({ event, request: new Request(url, { headers: { ...KEEP_HEADERS, accept } }) });
  await Promise.all([answered, written]).catch(() => undefined);
}

/** A guide is being read: it stays readable offline, its page and payload fresh, with the next two. */
function reading(path: string, event: ExtendableEvent, pageJustKept: boolean): Promise<unknown> {
  const guide = guideOf(path);
  // Offline, the cached copy was shown: nothing to fetch.
  if (!guide || !self.navigator.onLine) return Promise.resolve();
  return keepWithFollowing(guide, {
    keep: (url) => keep(url, event, url === guide.payload || (url === guide.page && !pageJustKept)),
    payload: async (url) => (await caches.match(url, { cacheName: GUIDES }))?.json().catch(() => null) ?? null,
    pictures: async (urls) => {
      await Promise.all(urls.map((url) => pictures.handle({ event, request: new Request(url) }).catch(() => undefined)));
    },
  });
}

/** The page shown for any page the network cannot bring: the offline page, precached with this build. */
async function offlinePage(): Promise<Response> {
  return (await matchPrecache(OFFLINE_PATH)) ?? Response.error();
}

registerRoute(
  ({ request }) => requestPolicy(request, self.location.origin) === 'guide',
  async ({ request, event }: RouteHandlerCallbackOptions) => {
    try {
      const [answered, written] = guides.handleAll({ request, event });
      const response = await answered;
      // A page load is a read: once its page is written, the guide is kept with the next two.
      // Payloads are read by the router, for links in view too: the page tells which guide it shows (READING).
      if (request.mode === 'navigate' && response.ok) {
        const extendable = event as ExtendableEvent;
        extendable.waitUntil(written.then(() => reading(new URL(request.url).pathname, extendable, true)).catch(() => undefined));
      }
      return response;
    } catch {
      // Nothing cached and no network: the offline page for a page load, a network error for a payload (the router then loads the page).
      return request.mode === 'navigate' ? offlinePage() : Response.error();
    }
  },
);

registerRoute(
  ({ request }) => requestPolicy(request, self.location.origin) === 'picture',
  async (options: RouteHandlerCallbackOptions) => {
    const request = options.request as Request;
    return pictures.handle(options).catch(async () => (await anyCopy(request.url)) ?? Response.error());
  },
);

const network = new NetworkOnly();
registerRoute(
  ({ request }) => requestPolicy(request, self.location.origin) === 'page',
  async (options: RouteHandlerCallbackOptions) => network.handle(options).catch(offlinePage),
);

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const message = event.data as PwaMessage | null;
  if (message?.type === PWA_MESSAGES.skipWaiting) void self.skipWaiting();
  else if (message?.type === PWA_MESSAGES.reading && typeof message.path === 'string') event.waitUntil(reading(message.path, event, false));
});

/**
 * Guides an older build's worker kept are fetched again for this build while it installs (its pages
 * name this build's scripts), so an update does not empty the offline shelf. Four at a time.
 */
async function carryOver(event: ExtendableEvent): Promise<void> {
  const paths = new Set<string>();
  for (const name of await caches.keys()) {
    if (!name.startsWith(GUIDES_CACHE_PREFIX) || name === GUIDES) continue;
    for (const request of await (await caches.open(name)).keys()) {
      const guide = guideOf(new URL(request.url).pathname);
      if (guide) paths.add(guide.page);
    }
  }
  const carried = [...paths].slice(-MAX_GUIDE_ENTRIES / 2).map((path) => guideOf(path)!);
  for (let i = 0; i < carried.length; i += 4) {
    await Promise.all(carried.slice(i, i + 4).flatMap((guide) => [keep(guide.page, event, false), keep(guide.payload, event, false)]));
  }
}

self.addEventListener('install', (event) => event.waitUntil(carryOver(event)));

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      // Page loads start on the network while the worker starts (Workbox's strategies use the preload).
      await self.registration.navigationPreload?.enable();
      // Guides kept by older builds' workers: their pages name scripts this build no longer has.
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith(GUIDES_CACHE_PREFIX) && name !== GUIDES).map((name) => caches.delete(name)));
    })(),
  );
});

// The first worker takes the open pages at once (there is no older one to wait for); an update waits for the prompt.
clientsClaim();
