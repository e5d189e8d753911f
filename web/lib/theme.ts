/** localStorage key of the colour-mode preference (kept from the spec so saved choices still apply). */
export const COLOR_MODE_KEY = 'nuxt-color-mode';

export type ColorPreference = 'system' | 'light' | 'dark';

/**
 * Runs inline in <head> before the first paint, so the page never flashes the wrong theme.
 * Kept tiny and dependency-free on purpose: it is serialised into every page.
 */
export const THEME_SCRIPT = `(function(){try{var p=localStorage.getItem('${COLOR_MODE_KEY}')||'system';var d=p==='dark'||(p!=='light'&&matchMedia('(prefers-color-scheme: dark)').matches);var e=document.documentElement;e.classList.toggle('dark',d);e.style.colorScheme=d?'dark':'light'}catch(_){}})()`;

export function readPreference(): ColorPreference {
  try {
    const value = localStorage.getItem(COLOR_MODE_KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

export function applyPreference(preference: ColorPreference): 'light' | 'dark' {
  const dark =
    preference === 'dark' || (preference === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.classList.toggle('dark', dark);
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  try {
    localStorage.setItem(COLOR_MODE_KEY, preference);
  } catch {
    // Private mode: the choice lasts for this page only.
  }
  return dark ? 'dark' : 'light';
}
