import { createContext, useContext, useLayoutEffect } from 'react';

import { COLOR_MODE_KEY } from 'src/contracts/inline-scripts';

// The head script and its keys live with the other inline scripts, whose hashes the CSP allows.
export { COLOR_MODE_KEY, FORCED_COLOR_MODE_ATTRIBUTE, THEME_SCRIPT } from 'src/contracts/inline-scripts';

/** The visitor's choice: 'system' follows the OS scheme, live. */
export type ColorPreference = 'system' | 'light' | 'dark';
/** The mode actually shown. */
export type ColorMode = 'light' | 'dark';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/**
 * The colour mode a page shows: the page's forced mode when it forces one, else the visitor's
 * preference, where 'system' follows the OS scheme. Pure: the inline head script does the same.
 */
export function effectiveColorMode(preference: ColorPreference, systemDark: boolean, forced?: ColorMode): ColorMode {
  if (forced) return forced;
  if (preference === 'system') return systemDark ? 'dark' : 'light';
  return preference;
}

const warnedRoutes = new Set<string>();
/** console.warn, once per route and JavaScript realm (the server process, a browser tab). */
function warnOncePerRoute(routeId: string, message: string): void {
  if (warnedRoutes.has(routeId)) return;
  warnedRoutes.add(routeId);
  console.warn(message);
}

/**
 * What a route's `colorMode` forces: 'light' or 'dark'. Forcing 'system' makes no sense (it is the
 * visitor's default already): it warns, naming the route, and forces nothing.
 */
export function forcedColorMode(
  routeId: string,
  colorMode: ColorPreference | undefined,
  warn: (routeId: string, message: string) => void = warnOncePerRoute,
): ColorMode | undefined {
  if (colorMode === 'light' || colorMode === 'dark') return colorMode;
  if (colorMode === 'system') {
    warn(routeId, `Route "${routeId}": colorMode 'system' forces nothing, the visitor's preference applies`);
  }
  return undefined;
}


export function readPreference(): ColorPreference {
  try {
    const value = localStorage.getItem(COLOR_MODE_KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

const systemPrefersDark = () => window.matchMedia(DARK_QUERY).matches;

/** Shows a mode on <html> (the `dark` class and the native colour scheme); stores nothing. */
function showMode(mode: ColorMode): void {
  const root = document.documentElement;
  root.classList.toggle('dark', mode === 'dark');
  root.style.colorScheme = mode;
}

/** Stores the visitor's choice and shows it (unless the page forces a mode, which still wins). */
export function applyPreference(preference: ColorPreference, forced?: ColorMode): ColorMode {
  const mode = effectiveColorMode(preference, systemPrefersDark(), forced);
  showMode(mode);
  try {
    localStorage.setItem(COLOR_MODE_KEY, preference);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  return mode;
}

/** The mode the current page forces, if any: provided by the layout, read by the theme toggle. */
export const ForcedColorModeContext = createContext<ColorMode | undefined>(undefined);
export const useForcedColorMode = () => useContext(ForcedColorModeContext);

/**
 * Keeps <html> in the page's colour mode in the browser: applies a forced mode on navigation to a
 * forcing page and restores the visitor's preference when leaving it (the stored preference is
 * never changed), and follows the OS scheme live while the preference is 'system' and nothing is
 * forced. Runs before paint, so a navigation never shows the previous page's mode.
 */
export function useColorMode(forced: ColorMode | undefined): void {
  useLayoutEffect(() => {
    const query = window.matchMedia(DARK_QUERY);
    const show = () => showMode(effectiveColorMode(readPreference(), query.matches, forced));
    show();
    query.addEventListener('change', show);
    return () => query.removeEventListener('change', show);
  }, [forced]);
}
