/** What the pages and the service worker (web/pwa/sw.ts) say to each other, and the one page they share. */

/** The offline page (web/features/offline), precached by every build's worker and shown for any page the network cannot bring. */
export const OFFLINE_PATH = '/offline';

export const PWA_MESSAGES = {
  /** The waiting worker of a new build takes over (workbox-window's messageSkipWaiting sends this). */
  skipWaiting: 'SKIP_WAITING',
  /** The page now shows this path (a client-side navigation): a guide is kept with the next two. */
  reading: 'READING',
} as const;

export type PwaMessage = { type: typeof PWA_MESSAGES.skipWaiting } | { type: typeof PWA_MESSAGES.reading; path: string };
