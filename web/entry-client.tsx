import './styles/app.css';
import { StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HelmetProvider } from 'react-helmet-async';
import type { HydrationData } from 'web/entry-server';
import { installChunkErrorReload, isStaleBuild, reloadForChunkError, startBuildCheck } from 'web/lib/build-check';
import { configureErrorReporter, installGlobalErrorReporting } from 'web/lib/error-reporter';
import { RootDataContext } from 'web/lib/root-data';
import { loadPage } from 'web/route-table';
import { BrowserRouter } from 'web/lib/router/router';
import { RootLayout } from 'web/routes/root';

declare global {
  interface Window {
    __PAGE__: HydrationData;
  }
}

// Root data and the first page arrive once, embedded in the HTML by the server.
const { root, page } = window.__PAGE__;

configureErrorReporter({ buildId: root.buildId });
installGlobalErrorReporting();
installChunkErrorReload();
startBuildCheck(root.buildId);

// The page's own chunk is loaded before hydrating, so the first render matches the server's.
void loadPage(page.routeId).catch(() => reloadForChunkError()).then(() =>
  hydrateRoot(
    document,
    <StrictMode>
      <RootDataContext.Provider value={root}>
        <BrowserRouter initial={page} loadPage={loadPage} fullLoadFirst={isStaleBuild} onChunkError={reloadForChunkError}>
          <HelmetProvider>
            <RootLayout />
          </HelmetProvider>
        </BrowserRouter>
      </RootDataContext.Provider>
    </StrictMode>,
  ),
);
