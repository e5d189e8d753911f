import { renderToPipeableStream, renderToStaticMarkup } from 'react-dom/server';
import { Helmet } from 'react-helmet-async';
import { analyticsScript, HINTS_REVEAL_SCRIPT, PROGRESS_LIST_SCRIPT, PROGRESS_SCRIPT, THEME_SCRIPT } from 'src/contracts/inline-scripts';
import { chunksOfPage, type PageAssets, type RootData } from 'src/contracts/page-data';
import type { PagePayload, PayloadInput, RenderInput, RenderOutput, ServerEntry } from 'src/contracts/ssr';
import { Document } from 'web/components/document';
import { ErrorView } from 'web/components/error-view';
import { I18nProvider, loadMessages } from 'web/i18n/i18n';
import { LOCALES } from 'web/i18n/locales';
import { FlushCoalescer } from 'web/lib/flush-coalescer';
import { HelmetContext } from 'web/lib/head-tags';
import { DocumentAssetsContext, HydrationJsonContext, ParseTimeScriptsContext, type DocumentAssets } from 'web/lib/render-context';
import { RootDataContext } from 'web/lib/root-data';
import { createMatcher, loadersOf, loadPageState, sectionsOf, type PageState } from 'web/lib/router/page';
import { StaticRouter } from 'web/lib/router/router';
import { loadPage, PAGES } from 'web/route-table';
import { RootLayout } from 'web/root';

/** Gives up on a render that has not finished by then; the browser renders what is missing. */
const ABORT_AFTER_MS = 10_000;
/** The inline scripts pages write (allowed by their hash in the CSP); only the server carries their text. */
const PARSE_TIME_SCRIPTS = { theme: THEME_SCRIPT, hintsReveal: HINTS_REVEAL_SCRIPT, progress: PROGRESS_SCRIPT, progressList: PROGRESS_LIST_SCRIPT, analytics: analyticsScript };

// The route table compiled once: each request is matched once (match), and render and payload read that match.
const matchPage = createMatcher(PAGES, LOCALES);
/** The loaders of the route objects, by route id. */
const LOADERS = loadersOf(PAGES);

/** What the browser needs to hydrate, and nothing else: read by web/entry-client.tsx. */
export interface HydrationData {
  root: RootData;
  page: PageState;
}

/** JSON safe inside a <script> data block: no '<', so no '</script>' or '<!--' (JSON.parse reads \u003c back). */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** The page state of a request's match: its loader run for the visitor (admin or not), no matching again. */
const resolve = (input: PayloadInput) => loadPageState(input.match, new URL(input.url), input.data, LOADERS, input.admin);

async function render(input: RenderInput): Promise<RenderOutput> {
  const { state: page, failure } = await resolve(input);
  if (page.redirect) return { kind: 'redirect', status: page.status, location: page.redirect };
  const [messages] = await Promise.all([loadMessages(page.locale), loadPage(page.routeId)]);
  const { pageChunks } = input.assets;
  const root: RootData = { config: input.data.config, buildId: input.buildId, ...(pageChunks ? { pageChunks: pageChunks.url } : {}) };
  const hydration: HydrationData = { root, page };
  // The page's own chunks download in parallel with the entry instead of after it.
  const documentAssets: DocumentAssets = { styles: input.assets.styles, preloads: [...input.assets.preloads, ...chunksOfPage(pageChunks?.map, page.routeId)] };

  return new Promise<RenderOutput>((resolveOutput, reject) => {
    let failed = false;
    let allReady = false;
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      resolveOutput({ kind: 'html', status: failed ? 500 : page.status, stream: body, complete: allReady, errors: failure ? [failure] : [] });
      pipe(body);
    };
    // One chunk per React flush (shell, boundaries, end) instead of one per ~2 KB write: see FlushCoalescer.
    const body = new FlushCoalescer();
    // Gives up on a slow render; cleared as soon as the stream ends.
    const timer = setTimeout(() => abort(), ABORT_AFTER_MS);
    timer.unref();
    const { pipe, abort } = renderToPipeableStream(
      <HydrationJsonContext.Provider value={scriptSafeJson(hydration)}>
        <ParseTimeScriptsContext.Provider value={PARSE_TIME_SCRIPTS}>
          <DocumentAssetsContext.Provider value={documentAssets}>
            <RootDataContext.Provider value={root}>
              <I18nProvider locale={page.locale} messages={messages}>
                <StaticRouter page={page}>
                  <HelmetContext value={Helmet}>
                    <RootLayout />
                  </HelmetContext>
                </StaticRouter>
              </I18nProvider>
            </RootDataContext.Provider>
          </DocumentAssetsContext.Provider>
        </ParseTimeScriptsContext.Provider>
      </HydrationJsonContext.Provider>,
      {
        // Only external modules from 'self': the hydration data is a JSON block (Document), not a script.
        bootstrapModules: input.assets.scripts,
        // Never outline a finished Suspense boundary (React does past 12,800 bytes): that needs an inline script the CSP refuses.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onShellReady() {
          // When nothing suspended, React calls onAllReady right after this: a microtask later the
          // output can say the page is complete (the bridge then sends it whole, with its length).
          if (!input.waitForAll) queueMicrotask(start);
        },
        onAllReady() {
          allReady = true;
          if (input.waitForAll) start();
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          failed = true;
          if (error instanceof Error) body.emit('render-error', error);
        },
      },
    );
    body.on('close', () => clearTimeout(timer));
    body.on('end', () => clearTimeout(timer));
    input.signal.addEventListener('abort', () => abort(), { once: true });
  });
}

async function payload(input: PayloadInput): Promise<PagePayload> {
  const { state, failure } = await resolve(input);
  const { url: _url, ...body } = state;
  return failure ? { ...body, errors: [failure] } : body;
}

function renderErrorDocument({ assets, status }: { assets: PageAssets; status: number }): string {
  return `<!DOCTYPE html>${renderToStaticMarkup(
    <HelmetContext value={Helmet}>
      <Document assets={{ styles: assets.styles, preloads: [] }}>
        <ErrorView status={status} />
      </Document>
    </HelmetContext>,
  )}`;
}

export const serverEntry: ServerEntry = {
  match: matchPage,
  render,
  payload,
  renderErrorDocument,
  sitemapPaths: (site) => {
    const payments = site.config.settings.has_payment;
    return PAGES.filter((page) => page.sitemap === 'always' || (payments && page.sitemap === 'with-payments')).map((page) => page.path);
  },
  pageSections: () => sectionsOf(PAGES),
};
