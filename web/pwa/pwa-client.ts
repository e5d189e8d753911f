import { Workbox } from 'workbox-window';
import type { HydrationData } from 'web/entry-server';
import { HYDRATION_DATA_ID } from 'src/contracts/inline-scripts';
import { markStaleBuild } from 'web/lib/build-check';
import { GUIDES_CACHE_PREFIX, guideOf } from './caching-rules';
import { PWA_MESSAGES, type PwaMessage } from './pwa-messages';

/** `PWA_KILL_SWITCH=1 npm run build` (vite.config.mts): the build's sw.js removes itself, and pages register none. */
declare const __PWA_KILL_SWITCH__: boolean;
const killed = typeof __PWA_KILL_SWITCH__ !== 'undefined' && __PWA_KILL_SWITCH__;

/** How often an open page looks for a new build. */
export const BUILD_CHECK_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Without a service worker: builds/latest.json (a cache-busting timestamp, never cached); a build id
 * other than the running one makes the next navigation a full page load (web/lib/build-check.ts).
 */
async function checkLatestBuild(currentId: string): Promise<void> {
  try {
    const response = await fetch(`/builds/latest.json?t=${Date.now()}`, { cache: 'no-store' });
    const { id } = (await response.json()) as { id?: string };
    if (id && id !== currentId) markStaleBuild();
  } catch {
    // Offline: try again next time.
  }
}

/** The web app manifest (src/ssr/site-files.controller.ts). */
const MANIFEST_HREF = '/manifest.webmanifest';

/**
 * Links the manifest now, not in the HTML: only installing reads it, yet a link in the HTML has
 * Chromium fetch it during the first load, one more request beside the page's scripts (Lighthouse
 * counts it toward the largest paint: about 50 ms on a guide). Installing needs JavaScript anyway
 * (the service worker below); test/offline.browser.e2e-spec.ts checks Chromium still finds it.
 */
function linkManifest(): void {
  if (document.querySelector('link[rel="manifest"]')) return;
  const link = document.createElement('link');
  link.rel = 'manifest';
  link.href = MANIFEST_HREF;
  document.head.append(link);
}

/**
 * Runs once the page has loaded and the browser is idle (web/entry-client.tsx imports this module then):
 * links the manifest, keeps `<html data-offline>` up to date (the `offline:` CSS variant: the video note), looks for a
 * new build every hour, and registers the service worker (web/pwa/sw.ts), whose update check then replaces the build check: a new build is announced by the prompt, never loaded
 * silently. Where no worker runs (no support, a plain-http origin, registration refused), the build
 * check stays. Development and a kill-switch build register none, and remove one left by `npm start`
 * on the same origin or by an earlier build, with its caches.
 */
async function startPwa(buildId: string): Promise<void> {
  linkManifest();
  const markConnection = () => document.documentElement.toggleAttribute('data-offline', !navigator.onLine);
  markConnection();
  addEventListener('online', markConnection);
  addEventListener('offline', markConnection);

  let check = () => checkLatestBuild(buildId);
  setInterval(() => void check(), BUILD_CHECK_INTERVAL_MS);

  const container = navigator.serviceWorker as ServiceWorkerContainer | undefined;
  if (!container) return;
  if (buildId === 'development' || killed) {
    // No worker here, and none left from an earlier build (or `npm start` on this address), nor what it kept.
    for (const registration of await container.getRegistrations()) await registration.unregister();
    for (const name of (await globalThis.caches?.keys()) ?? []) {
      if (name.startsWith('workbox-') || name.startsWith(GUIDES_CACHE_PREFIX)) await caches.delete(name);
    }
    return;
  }
  const controlledAtLoad = !!container.controller;
  const wb = new Workbox('/sw.js', { scope: '/', updateViaCache: 'none' });
  // A new build's worker is installed and waiting (now, or since an earlier page): the prompt.
  wb.addEventListener('waiting', () => void showUpdatePrompt(wb));
  let registration: ServiceWorkerRegistration | undefined;
  try {
    registration = await wb.register();
  } catch {
    // Refused (a browser setting, a test's context): the build check stays.
  }
  if (!registration) return;
  check = () => wb.update();

  // The worker sees the page loads; the router's navigations are payloads it cannot tell from link
  // prefetches, so the page says which guide it shows (the Navigation API: Chromium, Firefox, Safari 26).
  let told = controlledAtLoad ? location.pathname : '';
  const tell = () => {
    const path = location.pathname;
    if (path === told || !guideOf(path)) return;
    told = path;
    container.controller?.postMessage({ type: PWA_MESSAGES.reading, path } satisfies PwaMessage);
  };
  // The first worker takes this page once installed: it did not see the page load.
  container.addEventListener('controllerchange', tell);
  (window as { navigation?: EventTarget }).navigation?.addEventListener('currententrychange', tell);
}

// The running build's id, from the page's hydration data (the entry passes nothing: every byte there is first-load JS).
const { root } = JSON.parse(document.getElementById(HYDRATION_DATA_ID)?.textContent ?? '{}') as Partial<HydrationData>;
if (root) void startPwa(root.buildId);

let prompted = false;

/** Shows "A new version is available · Reload" once; Reload hands over to the waiting worker, then loads the page again. */
async function showUpdatePrompt(wb: Workbox): Promise<void> {
  if (prompted) return;
  prompted = true;
  const { mountUpdatePrompt } = await import('./update-prompt');
  await mountUpdatePrompt(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    // Another tab may have handed over already: then there is nothing waiting, only the page to load.
    if (!registration?.waiting) return location.reload();
    wb.addEventListener('controlling', () => location.reload());
    wb.messageSkipWaiting();
  });
}
