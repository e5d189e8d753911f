import { useEffect, useState, useSyncExternalStore } from 'react';
import { Seo } from 'web/components/seo';
import { usePageI18n } from 'web/i18n/page-messages';
import { localizePath } from 'web/i18n/locale';
import { useRootData } from 'web/lib/root-data';
import { Link } from 'web/lib/router/router';
import { readOfflineGuides, type OfflineGuide } from 'web/pwa/offline-guides';

const onConnectionChange = (change: () => void) => {
  addEventListener('online', change);
  addEventListener('offline', change);
  return () => {
    removeEventListener('online', change);
    removeEventListener('offline', change);
  };
};
const noSubscription = () => () => undefined;
/** How often a stand-in page asks again while the browser says it is online but the page did not come. */
const RETRY_MS = 5000;

/**
 * Loads the page asked for as soon as the network answers for it: at each 'online' event, and every
 * RETRY_MS while the browser believes it is online (a connection that is up but carries nothing).
 * A HEAD request, which the service worker lets through, proves the way is open before the reload,
 * so a page whose connection flaps is not reloaded into the stand-in again and again.
 */
function reloadWhenReachable(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const attempt = async () => {
    clearTimeout(timer);
    if (navigator.onLine) {
      try {
        await fetch(location.href, { method: 'HEAD', cache: 'no-store' });
        if (!stopped) location.reload();
        return;
      } catch {
        // Still no way through: ask again later.
      }
    }
    if (!stopped && navigator.onLine) timer = setTimeout(() => void attempt(), RETRY_MS);
  };
  const onOnline = () => void attempt();
  addEventListener('online', onOnline);
  if (navigator.onLine) timer = setTimeout(() => void attempt(), RETRY_MS);
  return () => {
    stopped = true;
    clearTimeout(timer);
    removeEventListener('online', onOnline);
  };
}

/**
 * /offline, and what the service worker shows for any page it cannot bring without a connection:
 * the guides this build's worker keeps (read from its cache in the browser), linked.
 */
export default function OfflinePage() {
  const { t, locale } = usePageI18n();
  const { buildId } = useRootData();
  const [guides, setGuides] = useState<OfflineGuide[] | null>(null);
  useEffect(() => {
    // The guides read in this page's language (the worker keeps each in the language it was read in).
    void readOfflineGuides(buildId)
      .catch(() => [])
      .then((all) => setGuides(all.filter((guide) => guide.href === localizePath(`/levels/${guide.number}`, locale))));
  }, [buildId, locale]);

  // Standing in for another address (the worker answered a page it could not bring with this one):
  // "Try again" loads that page, and once the connection is back it loads by itself. Known in the
  // browser only (the HTML is the same for every address), so the server renders no banner.
  const standIn = useSyncExternalStore(noSubscription, () => location.pathname !== localizePath('/offline', locale), () => false);
  const online = useSyncExternalStore(onConnectionChange, () => navigator.onLine, () => true);
  useEffect(() => (standIn ? reloadWhenReachable() : undefined), [standIn]);
  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={t('offline.seoTitle')} description={t('offline.seoDescription')} noindex />
      <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{t('offline.heading')}</h1>
      {standIn && (
        <p className="mt-4 flex flex-wrap items-center gap-3 rounded-2xl bg-amber-50 p-4 font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-100" data-testid="offline-stand-in">
          {t(online ? 'offline.notLoaded' : 'offline.youAreOffline')}
          <button type="button" onClick={() => location.reload()} className="rounded-full border border-amber-700 px-3 py-1 text-sm font-semibold hover:bg-amber-100 dark:border-amber-300 dark:hover:bg-amber-900">
            {t('offline.tryAgain')}
          </button>
        </p>
      )}
      <p className="mt-4 leading-7 text-gray-700 dark:text-gray-300">{t('offline.intro')}</p>

      <section aria-labelledby="saved-title" aria-busy={guides === null} className="mt-8">
        <h2 id="saved-title" className="text-lg font-bold">
          {t('offline.saved')}
        </h2>
        {guides === null ? (
          <p className="mt-3 text-gray-600 dark:text-gray-400">{t('offline.loading')}</p>
        ) : guides.length === 0 ? (
          <p className="mt-3 text-gray-600 dark:text-gray-400">
            {t('offline.none')}{' '}
            <Link to="/levels" className="font-semibold text-primary-700 underline underline-offset-4 dark:text-primary-400">
              {t('offline.browse')}
            </Link>
          </p>
        ) : (
          <ul className="mt-3 divide-y divide-gray-200 rounded-2xl border border-gray-200 dark:divide-gray-800 dark:border-gray-800">
            {guides.map((guide) => (
              <li key={guide.number}>
                <Link to={`/levels/${guide.number}`} className="block px-4 py-3 font-semibold hover:bg-gray-50 hover:text-primary-700 dark:hover:bg-gray-900 dark:hover:text-primary-400">
                  {t('level.heading', { level: guide.number, title: guide.title })}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}
