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

/**
 * localStorage key of how many hints of a ladder this browser has revealed (web/components/hint-ladder.tsx):
 * the level's one ladder, or one puzzle's (`hints-revealed:27:dome-code`).
 */
export const hintsRevealedKey = (level: number, puzzle?: string) => `hints-revealed:${level}${puzzle ? `:${puzzle}` : ''}`;

/**
 * Runs inline after a guide's hint lists (each an <ol data-level="N">, with data-puzzle="id" for a
 * puzzle's ladder, every hint rendered hidden) and un-hides the ones this browser revealed before,
 * while the page is parsed: they are there at the first paint, with no jump at hydration. Once after
 * the ladders above it, whatever their number (it redoes earlier ones harmlessly). One text for every
 * level, so one hash in the CSP.
 */
export const HINTS_REVEAL_SCRIPT = `(function(){try{[].forEach.call(document.querySelectorAll('ol[data-level]'),function(l){var p=l.getAttribute('data-puzzle'),n=+localStorage.getItem('hints-revealed:'+l.getAttribute('data-level')+(p?':'+p:''))||0;for(var i=0;i<n&&i<l.children.length;i++)l.children[i].hidden=false})}catch(_){}})()`;

/** What the progress scripts start with: the parent element `p`, localStorage `s`, and the two helpers. */
const PROGRESS_PRELUDE = `var p=document.currentScript.parentNode,s=localStorage,a=function(e,n){return e.getAttribute(n)},q=function(c,f){[].forEach.call(p.querySelectorAll(c),f)}`;

/**
 * Runs inline at the end of a guide's progress block (`data-progress="N"`, web/components/progress-marks.tsx)
 * and draws this browser's progress there while the page is parsed (src/contracts/progress.ts:
 * localStorage 'progress'), so cached HTML, the same for everyone, shows its marks at the first
 * paint with no jump at hydration; React renders the same attributes once hydrated.
 * `[data-set-mark]` buttons get aria-pressed, `[data-when]` shows only in its state, and
 * `[data-rung]` shows the next help of the ladder in view (the one-ladder guide's
 * `ol[data-level="N"]`, or the ladder in the open puzzle's <details>, earlier in the page): a hint
 * while some are unrevealed, else the steps; with puzzles and none open, 'choose'.
 * One text for every guide, so one hash in the CSP; a list's marks are PROGRESS_LIST_SCRIPT's, so a
 * guide carries none of that code.
 */
export const PROGRESS_SCRIPT = `(function(){try{${PROGRESS_PRELUDE},g=a(p,'data-progress'),e=(JSON.parse(s.getItem('progress')||'{}').levels||{})[g],k=e&&(e.state=='solved'||e.state=='stuck')?e.state:'',h=document.querySelector('details[open] ol[data-level="'+g+'"],ol[data-level="'+g+'"]:not([data-puzzle])'),r=!h?'choose':(+s.getItem('hints-revealed:'+g+(h.getAttribute('data-puzzle')?':'+h.getAttribute('data-puzzle'):''))||0)<h.children.length?'hint':'steps';q('[data-set-mark]',function(e){e.setAttribute('aria-pressed',a(e,'data-set-mark')==k)});q('[data-when]',function(e){e.hidden=a(e,'data-when')!=k});q('[data-rung]',function(e){e.hidden=a(e,'data-rung')!=r})}catch(_){}})()`;

/**
 * Runs inline at the end of an element that lists levels (web/components/level-grid.tsx, the home
 * page) and draws this browser's progress in it while the page is parsed, as PROGRESS_SCRIPT does
 * for a guide:
 * - `[data-level-mark="N"]` gets `data-mark` (solved or stuck); `[data-hide-solved]` shows once a
 *   level is solved, its toggle button pressed as stored ('progress-hide-solved'), and the parent
 *   gets `data-hiding`;
 * - `[data-continue]` (with `data-guides`, the levels with a guide as runs: "1-5 7 9", see
 *   GuideRanges): its link (rendered to level 1, in the page's language) goes to the first level
 *   with a guide after the highest solved one (continueAt, nextGuideAfter), written into `[data-n]`.
 * One text for every list, so one hash in the CSP.
 */
export const PROGRESS_LIST_SCRIPT = `(function(){try{${PROGRESS_PRELUDE},L=JSON.parse(s.getItem('progress')||'{}').levels||{},m=function(n){var e=L[n];return e&&(e.state=='solved'||e.state=='stuck')?e.state:''},x=0,y=0,k;q('[data-level-mark]',function(e){var v=m(a(e,'data-level-mark'));if(v)e.setAttribute('data-mark',v)});for(k in L)if(m(k)=='solved'){x++;if(+k>y)y=+k}q('[data-hide-solved]',function(e){var o=s.getItem('progress-hide-solved')=='1';e.hidden=!x;e.querySelector('button').setAttribute('aria-pressed',o);if(o&&x)p.setAttribute('data-hiding','')});q('[data-continue]',function(e){var G=a(e,'data-guides').split(' '),n=0,i,r;for(i=0;x&&!n&&i<G.length;i++){r=G[i].split('-');if(+(r[1]||r[0])>y)n=Math.max(+r[0],y+1)}if(n){e.hidden=false;var l=e.querySelector('a');l.setAttribute('href',a(l,'href').replace(/[0-9]+$/,n));e.querySelector('[data-n]').textContent=n}})}catch(_){}})()`;

/** The analytics bootstrap, only when ANALYTICS_ID is set. */
export const analyticsScript = (id: string) =>
  `window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config',${JSON.stringify(id)});`;

/** id of the non-executable <script type="application/json"> that carries the hydration data. */
export const HYDRATION_DATA_ID = '__page';
