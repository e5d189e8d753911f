import type { ReactNode } from 'react';
import { useI18n } from 'web/i18n/i18n';
import { HYDRATION_DATA_ID } from 'src/contracts/inline-scripts';
import { useHydrationJson, useParseTimeScripts, type DocumentAssets } from 'web/lib/render-context';
import type { ColorMode } from 'web/lib/theme';

/**
 * The whole HTML document. React renders <html> itself so that <title> and <meta> from any page
 * are hoisted into <head> while the page streams. A page's forced colour mode is rendered on <html>
 * (data-forced-color-mode, FORCED_COLOR_MODE_ATTRIBUTE) for the head script to apply before first paint.
 */
export function Document({ assets, analyticsId, forcedColorMode, children }: { assets: DocumentAssets; analyticsId?: string; forcedColorMode?: ColorMode; children: ReactNode }) {
  const hydrationJson = useHydrationJson();
  const scripts = useParseTimeScripts();
  const { locale } = useI18n();
  return (
    <html lang={locale} data-forced-color-mode={forcedColorMode} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        {/* The browser's bar: the dark page's grey (web/styles/app.css) when the system is dark, else the brand green (the first that matches wins). */}
        <meta name="theme-color" content="#030712" media="(prefers-color-scheme: dark)" />
        <meta name="theme-color" content="#16a34a" />
        {/* Sets the theme class before first paint; the CSP allows it by its hash (src/platform/http/csp.ts). Server-written: the browser hydrates it as it is. */}
        <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: scripts.theme }} />
        {/* Data, not code (never executed): web/entry-client.tsx reads it. In <head>, so it is parsed before the async entry runs. */}
        {hydrationJson && <script type="application/json" id={HYDRATION_DATA_ID} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: hydrationJson }} />}
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* The manifest (installing) is linked after load by web/pwa/pwa-client.ts; apple-touch-icon.png is found by its name. */}
        {/* With a precedence React writes the stylesheet first in <head>, ahead of the scripts' preloads: the browser asks for it first. */}
        {assets.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} precedence="default" />
        ))}
        {assets.preloads.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
      </head>
      <body>
        {children}
        {analyticsId && <Analytics id={analyticsId} />}
      </body>
    </html>
  );
}

/** The third-party analytics script, only when ANALYTICS_ID is set; async, so it never blocks rendering. */
function Analytics({ id }: { id: string }) {
  const { analytics } = useParseTimeScripts();
  return (
    <>
      <script async src={`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`} />
      <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: analytics(id) }} />
    </>
  );
}
