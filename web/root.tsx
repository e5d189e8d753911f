import { Component, createElement, lazy, Suspense, useSyncExternalStore, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import type { InsufficientCreditsBody } from 'src/contracts/billing';
import { Document } from 'web/components/document';
import { ErrorView } from 'web/components/error-view';
import { Footer } from 'web/components/footer';
import { Header } from 'web/components/header';
import { LoadingBar } from 'web/components/loading-bar';
import { Toaster } from 'web/components/toaster';
import { useT } from 'web/i18n/i18n';
import { reportError } from 'web/lib/error-reporter';
import { lowCreditStore } from 'web/lib/low-credit';
import { useDocumentAssets } from 'web/lib/render-context';
import { useSiteConfig } from 'web/lib/root-data';
import { usePage } from 'web/lib/router/router';
import { ForcedColorModeContext, forcedColorMode, useColorMode } from 'web/lib/theme';
import { colorModeOf, loadedPage } from 'web/route-table';

/** The site layout: header, the current page, footer. */
export function RootLayout() {
  const config = useSiteConfig();
  const assets = useDocumentAssets();
  const page = usePage();
  const t = useT();
  // A page may force a colour mode: rendered on <html> for the first paint, kept on navigation.
  const forced = forcedColorMode(page.routeId, colorModeOf(page.routeId));
  useColorMode(forced);
  return (
    <ForcedColorModeContext value={forced}>
      <Document assets={assets} analyticsId={config.analyticsId} forcedColorMode={forced}>
        <div className="flex min-h-dvh flex-col">
          <a
            href="#main"
            className="skip-link"
          >
            {t('layout.skipToContent')}
          </a>
          <Header />
          <div id="main" className="flex-1">
            <RenderErrorBoundary key={page.url}>
              <CurrentPage />
            </RenderErrorBoundary>
          </div>
          <Footer />
        </div>
        <Toaster />
        <LoadingBar />
        <LowCredit />
      </Document>
    </ForcedColorModeContext>
  );
}

// A chunk that fails to load (offline, a new deploy) leaves the modal out rather than the whole layout.
const LowCreditModal = lazy<ComponentType<{ body: InsufficientCreditsBody; onClose: () => void }>>(() =>
  import('web/components/low-credit-modal').then(
    (m) => ({ default: m.LowCreditModal }),
    () => ({ default: () => null }),
  ),
);

/** The low-credit modal, when an API answer asked for it; its code loads the first time (kept out of the entry). */
function LowCredit() {
  const body = useSyncExternalStore(lowCreditStore.subscribe, lowCreditStore.get, lowCreditStore.serverGet);
  if (!body) return null;
  return (
    <Suspense fallback={null}>
      <LowCreditModal key={JSON.stringify(body)} body={body} onClose={lowCreditStore.close} />
    </Suspense>
  );
}

/** The matched page, or the error page with the status the server answered. */
function CurrentPage() {
  const page = usePage();
  if (page.error) {
    return <ErrorView status={page.error.status} message={page.error.status === 404 ? page.error.message : undefined} />;
  }
  // Components come from the route table, loaded once (loadPage); never created during render.
  const component = loadedPage(page.routeId);
  return component ? createElement(component) : <ErrorView status={404} />;
}

/**
 * A page that throws while rendering in the browser shows 'An error occurred' inside the layout,
 * and is reported as NUXT_APP_ERROR (the spec's value, kept so existing dashboards still match).
 */
class RenderErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    reportError('NUXT_APP_ERROR', error.message, `${error.stack ?? ''}${info.componentStack ?? ''}`);
  }

  override render() {
    return this.state.failed ? <ErrorView status={500} /> : this.props.children;
  }
}
