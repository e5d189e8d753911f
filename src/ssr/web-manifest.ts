import type { AppConfig } from 'src/config/app-config';

/** The site's green: the favicon's square (web/public/favicon.svg), the browser bar's colour (web/components/document.tsx). */
export const THEME_COLOR = '#16a34a';

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: 'any' | 'maskable';
}

/** The fields of the web app manifest (W3C Web Application Manifest) this site sets. */
export interface WebManifest {
  id: string;
  name: string;
  short_name: string;
  description: string;
  lang: string;
  start_url: string;
  scope: string;
  display: 'standalone';
  background_color: string;
  theme_color: string;
  icons: ManifestIcon[];
}

/**
 * The web app manifest (`/manifest.webmanifest`, linked from every page): made from the site's
 * settings at start, since the name is configuration, not part of the build. The icons are drawn
 * by the build from the favicon (vite.config.mts, appIcons): the mark at 192 and 512 px for
 * launchers that show it as it is, and a maskable one (a full square) for those that crop it.
 */
export function webManifest(config: Pick<AppConfig, 'public' | 'webApp'>): WebManifest {
  const { siteName, gameName } = config.public;
  return {
    id: '/',
    name: siteName,
    short_name: config.webApp.shortName,
    description: `Hints, step-by-step solutions and video walkthroughs for every level of ${gameName}; the guides you open stay readable offline.`,
    lang: 'en',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: THEME_COLOR,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
    ],
  };
}
