import { useSyncExternalStore } from 'react';
import { Icon } from 'web/components/icons';
import { Breadcrumbs } from 'web/components/level-bits';
import { Seo } from 'web/components/seo';
import { usePageI18n } from 'web/i18n/page-messages';
import { useSiteConfig } from 'web/lib/root-data';

type Platform = 'ios' | 'android' | 'other';
const detectPlatform = (): Platform =>
  /iPhone|iPad|iPod/i.test(navigator.userAgent) ? 'ios' : /Android/i.test(navigator.userAgent) ? 'android' : 'other';
const noSubscription = () => () => undefined;

/** /download: the game's store links from config, the visitor's own store first (decided in the browser, so the HTML stays cacheable). */
export default function DownloadPage() {
  const { gameName, appStores } = useSiteConfig();
  const platform = useSyncExternalStore(noSubscription, detectPlatform, () => 'other' as Platform);
  const { t } = usePageI18n();
  const stores = [
    appStores.appStore && { id: 'ios', label: t('download.appStore'), href: appStores.appStore },
    appStores.playStore && { id: 'android', label: t('download.playStore'), href: appStores.playStore },
  ].filter((store): store is { id: string; label: string; href: string } => Boolean(store));
  if (platform === 'android') stores.reverse();
  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={t('download.title', { game: gameName })} description={t('download.seoDescription', { game: gameName })} />
      <Breadcrumbs items={[{ label: t('menu.home'), to: '/' }, { label: t('menu.download') }]} />
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight sm:text-4xl">{t('download.title', { game: gameName })}</h1>
      <p className="mt-3 text-lg text-gray-600 dark:text-gray-400">{t('download.intro')}</p>
      {stores.length > 0 && (
        <ul className="mt-8 flex flex-col gap-3 sm:flex-row">
          {stores.map((store) => (
            <li key={store.id}>
              <a
                href={store.href}
                rel="noopener"
                data-store={store.id}
                className="inline-flex items-center gap-2 rounded-full bg-gray-900 px-6 py-3 font-semibold text-white hover:bg-gray-700 dark:bg-white dark:text-gray-900 dark:hover:bg-gray-200"
              >
                <Icon name="download" className="size-5" /> {store.label}
              </a>
            </li>
          ))}
        </ul>
      )}
      {/* A store without a configured link: how to find the game there, never a dead button. */}
      {stores.length < 2 && (
        <ul className="mt-8 space-y-2 rounded-2xl bg-gray-50 p-5 dark:bg-gray-900" data-testid="store-help">
          {!appStores.appStore && <li>{t('download.findOnAppStore', { game: gameName })}</li>}
          {!appStores.playStore && <li>{t('download.findOnPlayStore', { game: gameName })}</li>}
        </ul>
      )}
      {stores.length > 0 && <p className="mt-8 text-sm text-gray-500 dark:text-gray-400">{t('download.notTheGame')}</p>}
    </main>
  );
}
