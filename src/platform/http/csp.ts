import { createHash } from 'node:crypto';
import type { AppConfig } from 'src/config/app-config';
import { analyticsScript, HINTS_REVEAL_SCRIPT, PROGRESS_LIST_SCRIPT, PROGRESS_SCRIPT, THEME_SCRIPT } from 'src/contracts/inline-scripts';

/** The CSP source that allows exactly this inline script: its SHA-256, of the bytes as served. */
export const scriptHash = (script: string) => `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;

/**
 * Content-Security-Policy: same-origin everything; the only inline scripts that run are the ones
 * in src/contracts/inline-scripts.ts, allowed by hash. No nonce, so one header for every response
 * and cached pages are the same bytes for everyone.
 */
export function cspDirectives(config: AppConfig): Record<string, string[] | null> {
  const analyticsId = config.public.analyticsId;
  const analytics = analyticsId ? ['https://www.googletagmanager.com', scriptHash(analyticsScript(analyticsId))] : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", scriptHash(THEME_SCRIPT), scriptHash(HINTS_REVEAL_SCRIPT), scriptHash(PROGRESS_SCRIPT), scriptHash(PROGRESS_LIST_SCRIPT), ...analytics],
    styleSrc: ["'self'"],
    // React sets style attributes (the loading bar, transitions); attributes cannot run code.
    styleSrcAttr: ["'unsafe-inline'"],
    // data: for the stylesheet's icons and logo (web/styles/icons.css, app.css) and the image tool's thumbnail of a picked file.
    imgSrc: ["'self'", 'data:', 'https://i.ytimg.com'],
    // Fonts (none: the system's) and fetches fall back to default-src 'self'. A directive that only
    // repeats default-src costs its bytes on every response and allows nothing more or less.
    connectSrc: analyticsId ? ["'self'", 'https://*.google-analytics.com'] : null,
    frameSrc: ['https://www.youtube-nocookie.com'],
    // Said outright rather than left to fall back to script-src and default-src: the service worker
    // (/sw.js, web/pwa/sw.ts) and the web app manifest come from this origin only.
    workerSrc: ["'self'"],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'self'"],
    upgradeInsecureRequests: config.http.publicUrl.startsWith('https:') ? [] : null,
  };
}
