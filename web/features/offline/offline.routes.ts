import { definePage } from 'web/lib/router/page';
import { OFFLINE_PATH } from 'web/pwa/pwa-messages';

/**
 * The offline page: what the service worker (web/pwa/sw.ts) shows for any page the network cannot
 * bring, precached with each build. Its list of guides is read from the worker's cache in the
 * browser, so the HTML is the same for everyone and cached.
 */
export const offline = definePage({
  id: 'offline',
  path: OFFLINE_PATH,
  page: () => import('web/features/offline/offline.page'),
  cache: true,
});
