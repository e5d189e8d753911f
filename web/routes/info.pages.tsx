import { useSyncExternalStore } from 'react';
import type { ExploreData, MediaEntry } from 'src/contracts/content';
import { formatDate, formatMonth } from 'src/contracts/dates';
import type { LevelSummary } from 'src/contracts/levels';
import { FaqList } from 'web/components/faq';
import { Icon } from 'web/components/icons';
import { Breadcrumbs } from 'web/components/level-bits';
import { LevelCard } from 'web/components/level-card';
import { TagLink } from 'web/components/post-list';
import { Seo } from 'web/components/seo';
import { usePageI18n } from 'web/i18n/page-messages';
import { useSiteConfig } from 'web/lib/root-data';
import { Link, usePageData } from 'web/lib/router/router';

type Platform = 'ios' | 'android' | 'other';
const detectPlatform = (): Platform =>
  /iPhone|iPad|iPod/i.test(navigator.userAgent) ? 'ios' : /Android/i.test(navigator.userAgent) ? 'android' : 'other';
const noSubscription = () => () => undefined;

/** /faq: the home page's questions (one source, web/components/faq). */
export function FaqPage() {
  const { siteUrl } = useSiteConfig();
  const { t } = usePageI18n();
  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={t('home.faq')} description={t('faq.seoDescription')} />
      <Breadcrumbs items={[{ label: t('menu.home'), to: '/' }, { label: t('home.faq') }]} />
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight sm:text-4xl">{t('home.faq')}</h1>
      <FaqList url={`${siteUrl}/faq`} />
    </main>
  );
}

/** /download: the game's store links from config, the visitor's own store first (decided in the browser, so the HTML stays cacheable). */
export function DownloadPage() {
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

/** /media: press and media coverage, from content/media.yaml. */
export function MediaPage() {
  const entries = usePageData<MediaEntry[]>();
  const { t, tag } = usePageI18n();
  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={t('media.title')} description={t('media.seoDescription')} />
      <Breadcrumbs items={[{ label: t('menu.home'), to: '/' }, { label: t('menu.media') }]} />
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight sm:text-4xl">{t('media.title')}</h1>
      {entries.length ? (
        <ul className="mt-8 divide-y divide-gray-200 dark:divide-gray-800">
          {entries.map((entry) => (
            <li key={entry.url} className="py-5">
              <p className="text-sm text-gray-500 dark:text-gray-400">
                {entry.outlet} · <time dateTime={entry.date}>{formatDate(entry.date, tag)}</time>
              </p>
              <h2 className="mt-1 text-lg font-semibold">
                <a href={entry.url} rel="noopener nofollow" className="text-primary-700 underline decoration-primary-700/40 underline-offset-4 hover:decoration-primary-700 dark:text-primary-400 dark:decoration-primary-400/40 dark:hover:decoration-primary-400">
                  {entry.title}
                </a>
              </h2>
              {entry.summary && <p className="mt-1 text-gray-600 dark:text-gray-400">{entry.summary}</p>}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-8">{t('media.empty')}</p>
      )}
    </main>
  );
}

export interface ExplorePageData extends ExploreData {
  featured: LevelSummary[];
}

/** /explore: every way in — popular guides, blog categories and the monthly archive. */
export function ExplorePage() {
  const { tags, months, featured } = usePageData<ExplorePageData>();
  const { t, tag } = usePageI18n();
  return (
    <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={t('explore.title')} description={t('explore.seoDescription')} />
      <Breadcrumbs items={[{ label: t('menu.home'), to: '/' }, { label: t('explore.title') }]} />
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight sm:text-4xl">{t('explore.title')}</h1>
      <section aria-labelledby="explore-levels" className="mt-8">
        <h2 id="explore-levels" className="text-xl font-bold">
          {t('explore.popular')}
        </h2>
        <ul className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          {featured.map((level) => (
            <li key={level.number}>
              <LevelCard level={level} />
            </li>
          ))}
        </ul>
        <Link to="/levels" className="mt-4 inline-block text-sm font-semibold text-primary-700 hover:underline dark:text-primary-400">
          {t('levels.allLink')}
        </Link>
      </section>
      <div className="mt-12 grid gap-10 md:grid-cols-2">
        <section aria-labelledby="explore-categories">
          <h2 id="explore-categories" className="text-xl font-bold">
            {t('explore.categories')}
          </h2>
          <p className="mt-4 flex flex-wrap gap-2">
            {tags.map((entry) => (
              <span key={entry.tag} className="inline-flex items-center gap-1">
                <TagLink tag={entry.tag} />
                <span className="text-xs text-gray-600 dark:text-gray-400">({entry.posts})</span>
              </span>
            ))}
          </p>
        </section>
        <section aria-labelledby="explore-months">
          <h2 id="explore-months" className="text-xl font-bold">
            {t('explore.archive')}
          </h2>
          <ul className="mt-4 space-y-1">
            {months.map((m) => (
              <li key={m.month}>
                <Link to={`/month/${m.month}`} className="hover:text-primary-700 dark:hover:text-primary-400">
                  {formatMonth(m.month, tag)}
                </Link>{' '}
                <span className="text-sm text-gray-600 dark:text-gray-400">({m.posts})</span>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </main>
  );
}
