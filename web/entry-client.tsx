import './styles/app.css';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import type { HydrationData } from 'web/entry-server';
import { isStaleBuild, reloadForChunkError } from 'web/lib/build-check';
import { I18nProvider, loadMessages, type Messages } from 'web/i18n/i18n';
import { readCookie, LOCALE_COOKIE, rememberLocale } from 'web/i18n/locale';
import { configureErrorReporter, installGlobalErrorReporting } from 'web/lib/error-reporter';
import { HYDRATION_DATA_ID } from 'src/contracts/inline-scripts';
import { chunksOfPage, type PageChunks } from 'src/contracts/page-data';
import { browserHeadTags } from 'web/lib/head-tags';
import { HydrationJsonContext } from 'web/lib/render-context';
import { RootDataContext } from 'web/lib/root-data';
import { loadPage } from 'web/route-table';
import { BrowserRouter } from 'web/lib/router/router';
import { RootLayout } from 'web/root';

// Root data and the first page arrive once, as a JSON data block in the server's <head> (no inline script: see Document).
const hydrationJson = document.getElementById(HYDRATION_DATA_ID)?.textContent ?? '';
const { root, page } = JSON.parse(hydrationJson) as HydrationData;

configureErrorReporter({ buildId: root.buildId });
installGlobalErrorReporting();
// The check for a new build and the service worker (guides offline, the "new version" prompt) once
// the page has loaded and the browser is idle: none of their code is in the first load.
addEventListener('load', () => (window.requestIdleCallback ?? setTimeout)(() => import('web/pwa/pwa-client').catch(() => undefined)));

/**
 * The build's page chunk map (PageChunks), fetched the first time another page is loaded (a
 * navigation, or a link's prefetch), never for the first render: the server's HTML preloads that
 * page's chunks. Hashed and immutable, and precached by the service worker for reading offline.
 * Only an optimisation: without it (a failed fetch, asked again next time) pages load all the same.
 */
let chunkMap: Promise<PageChunks | undefined> | undefined;
function pageChunkMap(): Promise<PageChunks | undefined> {
  const url = root.pageChunks;
  if (!url) return Promise.resolve(undefined);
  chunkMap ??= fetch(url)
    .then((response) => (response.ok ? (response.json() as Promise<PageChunks>) : undefined))
    .catch(() => undefined)
    .then((map) => {
      if (!map) chunkMap = undefined;
      return map;
    });
  return chunkMap;
}

// Helmet writes the head tags of the pages after this one: loaded once this one has hydrated.
const { BrowserHeadTags, ready: headTagsReady } = browserHeadTags();

/**
 * Loads a page's chunk and, as vite does for other dynamic imports, preloads the chunks it imports
 * beside it (their list from the map, which downloads alongside the page's chunk the first time).
 * The page shows once Helmet has the page on screen's head tags, so that the next page's replace them.
 */
async function loadPageAndChunks(routeId: string): Promise<void> {
  void pageChunkMap().then((map) => {
    for (const href of chunksOfPage(map, routeId)) {
      if (document.head.querySelector(`link[href="${href}"]`)) continue;
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      document.head.append(link);
    }
  });
  await Promise.all([loadPage(routeId), headTagsReady]);
}

// A first visit remembers the language it arrived in (route, or the server's redirect).
if (!readCookie(document.cookie, LOCALE_COOKIE)) rememberLocale(page.locale);

/**
 * Hydrates the server's HTML. In a transition, React hydrates in slices of a few milliseconds and
 * yields to the browser in between (a tap, a paint, the next chunk arriving) instead of holding the
 * main thread for the whole page: a slow phone stays responsive while the page comes alive. A tap on
 * a part not hydrated yet makes React hydrate that part at once when its code is there; a part whose
 * chunk is still coming (web/features/levels/folded-parts.tsx) answers once the chunk has come.
 */
function hydrate(messages: Messages): void {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydrationJsonContext.Provider value={hydrationJson}>
          <RootDataContext.Provider value={root}>
            <I18nProvider locale={page.locale} messages={messages}>
              <BrowserRouter initial={page} loadPage={loadPageAndChunks} fullLoadFirst={isStaleBuild} onChunkError={reloadForChunkError}>
                <BrowserHeadTags>
                  <RootLayout />
                </BrowserHeadTags>
              </BrowserRouter>
            </I18nProvider>
          </RootDataContext.Provider>
        </HydrationJsonContext.Provider>
      </StrictMode>,
    );
  });
}

// The page's own chunk and its messages load before hydrating, so the first render matches the server's.
void Promise.all([loadMessages(page.locale), loadPage(page.routeId)])
  // A chunk of an older build is gone: reload (at most once per 10 s); the server's HTML stays readable.
  .catch(() => void reloadForChunkError())
  .then((loaded) => loaded && hydrate(loaded[0]));
