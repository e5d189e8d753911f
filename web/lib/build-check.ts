/**
 * Spots a new deploy: every 60 minutes the app fetches builds/latest.json (with a cache-busting
 * timestamp); when the id differs from the running build, the next navigation is a full page load.
 * A chunk that fails to load (an old file gone after a deploy) reloads the page, at most once per 10 s:
 * the router calls reloadForChunkError when a navigation's chunk fails, the entry when the first
 * page's does. A failed prefetch reloads nothing (the visitor may be reading); the click retries.
 */
export const BUILD_CHECK_INTERVAL_MS = 60 * 60 * 1000;
export const RELOAD_GUARD_MS = 10_000;
const RELOAD_KEY = 'chunk-reload-at';

let stale = false;

export const isStaleBuild = () => stale;

export async function checkBuild(currentId: string): Promise<boolean> {
  try {
    const response = await fetch(`/builds/latest.json?t=${Date.now()}`, { cache: 'no-store' });
    const { id } = (await response.json()) as { id?: string };
    if (id && id !== currentId) stale = true;
  } catch {
    // Offline: try again next time.
  }
  return stale;
}

export function startBuildCheck(currentId: string): void {
  setInterval(() => void checkBuild(currentId), BUILD_CHECK_INTERVAL_MS);
}

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
