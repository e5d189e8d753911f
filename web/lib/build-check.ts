/**
 * What the entry keeps of spotting a new deploy: whether one was spotted, and the reload for a
 * chunk that failed to load. The spotting itself runs once the page has loaded (web/pwa/pwa-client.ts):
 * the service worker's update check, announced with "A new version is available · Reload"; or,
 * where no worker runs, builds/latest.json every 60 minutes, after which the next navigation is a
 * full page load (markStaleBuild).
 * A chunk that fails to load (an old file gone after a deploy) reloads the page, at most once per 10 s:
 * the router calls reloadForChunkError when a navigation's chunk fails, the entry when the first
 * page's does. A failed prefetch reloads nothing (the visitor may be reading); the click retries.
 */
export const RELOAD_GUARD_MS = 10_000;
const RELOAD_KEY = 'chunk-reload-at';

let stale = false;

export const isStaleBuild = () => stale;
export const markStaleBuild = () => void (stale = true);

/**
 * Reloads the page for a chunk-load error unless it already did so in the last 10 s. Only reloads
 * are remembered: errors that did not reload do not push the next reload further away.
 */
export function reloadForChunkError(): boolean {
  const now = Date.now();
  try {
    if (now - Number(sessionStorage.getItem(RELOAD_KEY) ?? 0) < RELOAD_GUARD_MS) return false;
    sessionStorage.setItem(RELOAD_KEY, String(now));
  } catch {
    // No storage: still reload, the guard just cannot hold.
  }
  window.location.reload();
  return true;
}
