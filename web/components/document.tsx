import type { ReactNode } from 'react';
import type { PageAssets } from 'src/contracts/page-data';
import { useI18n } from 'web/i18n/i18n';
import { useNonce } from 'web/lib/render-context';
import { THEME_SCRIPT, type ColorMode } from 'web/lib/theme';

/**
 * The whole HTML document. React renders <html> itself so that <title> and <meta> from any page
 * are hoisted into <head> while the page streams. A page's forced colour mode is rendered on <html>
 * (data-forced-color-mode, FORCED_COLOR_MODE_ATTRIBUTE) for the head script to apply before first paint.
 */
export function Document({ assets, analyticsId, forcedColorMode, children }: { assets: PageAssets; analyticsId?: string; forcedColorMode?: ColorMode; children: ReactNode }) {
  const nonce = useNonce();
  const { locale } = useI18n();
  return (
    <html lang={locale} data-forced-color-mode={forcedColorMode} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="theme-color" content="#16a34a" />
        {/* Sets the theme class before first paint; the browser hides the nonce after parsing. */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {assets.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {assets.preloads.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
      </head>
      <body>
        {children}
        {analyticsId && <Analytics id={analyticsId} nonce={nonce} />}
      </body>
    </html>
  );
}

/** The third-party analytics script, only when ANALYTICS_ID is set; async, so it never blocks rendering. */
function Analytics({ id, nonce }: { id: string; nonce?: string }) {
  const init = `window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config',${JSON.stringify(id)});`;
  return (
    <>
      <script async src={`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`} nonce={nonce} suppressHydrationWarning />
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: init }} />
    </>
  );
}
