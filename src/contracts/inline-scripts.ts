/**
 * The only inline scripts a page carries, as exact text. The server's Content-Security-Policy
 * allows each by its SHA-256 (src/platform/http/csp.ts), so cached HTML needs no per-response
 * nonce: change a byte here and the hash follows, at the next start.
 */

/** localStorage key of the colour-mode preference (kept from the spec so saved choices still apply). */
export const COLOR_MODE_KEY = 'nuxt-color-mode';

/**
 * Set on <html> by the server when the page forces a colour mode ('light' or 'dark'), so the head
 * script applies it before the first paint. Never 'system': forcing 'system' forces nothing.
 */
export const FORCED_COLOR_MODE_ATTRIBUTE = 'data-forced-color-mode';

const DARK_QUERY = '(prefers-color-scheme: dark)';

/**
 * Runs inline in <head> before the first paint, so the page never flashes the wrong theme: the
 * forced mode rendered on <html> when there is one, else the stored preference (system by default).
 * Kept tiny and dependency-free on purpose: it is in every page. Same rule as effectiveColorMode
 * in web/lib/theme.ts (theme.spec.ts checks both agree).
 */
export const THEME_SCRIPT = `(function(){var e=document.documentElement,f=e.getAttribute('${FORCED_COLOR_MODE_ATTRIBUTE}'),p;try{p=localStorage.getItem('${COLOR_MODE_KEY}')}catch(_){}try{var d=f=='dark'||f!='light'&&(p=='dark'||p!='light'&&matchMedia('${DARK_QUERY}').matches);e.classList.toggle('dark',d);e.style.colorScheme=d?'dark':'light'}catch(_){}})()`;

/** localStorage key of how many hints of a level this browser has revealed (web/components/hint-ladder.tsx). */
export const hintsRevealedKey = (level: number) => `hints-revealed:${level}`;

/**
 * Runs inline right after a level's hint list (an <ol data-level="N">, every hint rendered hidden)
 * and un-hides the ones this browser revealed before, while the page is parsed: they are there at
 * the first paint, with no jump at hydration. One text for every level, so one hash in the CSP.
 */
export const HINTS_REVEAL_SCRIPT = `(function(){try{var l=document.currentScript.previousElementSibling,n=+localStorage.getItem('hints-revealed:'+l.getAttribute('data-level'))||0;for(var i=0;i<n&&i<l.children.length;i++)l.children[i].hidden=false}catch(_){}})()`;

/** The analytics bootstrap, only when ANALYTICS_ID is set. */
export const analyticsScript = (id: string) =>
  `window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config',${JSON.stringify(id)});`;

/** id of the non-executable <script type="application/json"> that carries the hydration data. */
export const HYDRATION_DATA_ID = '__page';
