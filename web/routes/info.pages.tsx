import { useSyncExternalStore } from 'react';
import type { ExploreData, MediaEntry } from 'src/contracts/content';
import { formatDate } from 'src/contracts/dates';
import type { LevelSummary } from 'src/contracts/levels';
import { Icon } from 'web/components/icons';
import { Breadcrumbs, LevelCard } from 'web/components/level-bits';
import { TagLink } from 'web/components/post-list';
import { Seo } from 'web/components/seo';
import { useSiteConfig } from 'web/lib/root-data';
import { Link, usePageData } from 'web/lib/router/router';

type Platform = 'ios' | 'android' | 'other';
const detectPlatform = (): Platform =>
  /iPhone|iPad|iPod/i.test(navigator.userAgent) ? 'ios' : /Android/i.test(navigator.userAgent) ? 'android' : 'other';
const noSubscription = () => () => undefined;

/** /download: the game's store links from config, the visitor's own store first (decided in the browser, so the HTML stays cacheable). */
export function DownloadPage() {
  const { gameName, appStores } = useSiteConfig();
  const platform = useSyncExternalStore(noSubscription, detectPlatform, () => 'other' as Platform);
  const stores = [
    appStores.appStore && { id: 'ios', label: 'Download on the App Store', href: appStores.appStore },
    appStores.playStore && { id: 'android', label: 'Get it on Google Play', href: appStores.playStore },
  ].filter((store): store is { id: string; label: string; href: string } => Boolean(store));
  if (platform === 'android') stores.reverse();
  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={`Download ${gameName}`} description={`Where to get ${gameName} for iPhone, iPad and Android.`} />
      <Breadcrumbs items={[{ label: 'Home', to: '/' }, { label: 'Download' }]} />
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight sm:text-4xl">Download {gameName}</h1>
      <p className="mt-3 text-lg text-gray-600 dark:text-gray-400">Free on phones and tablets. Rated 4.7, over 10 million downloads, age 12+.</p>
      {stores.length ? (
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
      ) : (
        <p className="mt-8 rounded-2xl bg-gray-50 p-5 dark:bg-gray-900">Search for &ldquo;{gameName}&rdquo; in your phone&apos;s app store.</p>
      )}
      <p className="mt-8 text-sm text-gray-500 dark:text-gray-400">This guide is not the game: the links take you to the official store pages.</p>
    </main>
  );
}

/** /media: press and media coverage, from content/media.yaml. */
export function MediaPage() {
  const entries = usePageData<MediaEntry[]>();
  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title="In the media" description="Articles, videos and podcasts that mention the guides." />
      <Breadcrumbs items={[{ label: 'Home', to: '/' }, { label: 'Media' }]} />
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight sm:text-4xl">In the media</h1>
      {entries.length ? (
        <ul className="mt-8 divide-y divide-gray-200 dark:divide-gray-800">
          {entries.map((entry) => (
            <li key={entry.url} className="py-5">
              <p className="text-sm text-gray-500 dark:text-gray-400">
                {entry.outlet} · <time dateTime={entry.date}>{formatDate(entry.date)}</time>
              </p>
              <h2 className="mt-1 text-lg font-semibold">
                <a href={entry.url} rel="noopener nofollow" className="hover:text-primary-700 dark:hover:text-primary-400">
                  {entry.title}
                </a>
              </h2>
              {entry.summary && <p className="mt-1 text-gray-600 dark:text-gray-400">{entry.summary}</p>}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-8">No media coverage yet.</p>
      )}
    </main>
  );
}

export interface ExplorePageData extends ExploreData {
  featured: LevelSummary[];
}

const monthLabel = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { year: 'numeric', month: 'long', timeZone: 'UTC' });

/** /explore: every way in — popular guides, blog categories and the monthly archive. */
export function ExplorePage() {
  const { tags, months, featured } = usePageData<ExplorePageData>();
  return (
    <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title="Explore" description="Popular level guides, blog categories and the archive." />
      <Breadcrumbs items={[{ label: 'Home', to: '/' }, { label: 'Explore' }]} />
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight sm:text-4xl">Explore</h1>
      <section aria-labelledby="explore-levels" className="mt-8">
        <h2 id="explore-levels" className="text-xl font-bold">
          Popular guides
        </h2>
        <ul className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          {featured.map((level) => (
            <li key={level.number}>
              <LevelCard level={level} />
            </li>
          ))}
        </ul>
        <Link to="/levels" className="mt-4 inline-block text-sm font-semibold text-primary-700 hover:underline dark:text-primary-400">
          All levels
        </Link>
      </section>
      <div className="mt-12 grid gap-10 md:grid-cols-2">
        <section aria-labelledby="explore-categories">
          <h2 id="explore-categories" className="text-xl font-bold">
            Categories
          </h2>
          <p className="mt-4 flex flex-wrap gap-2">
            {tags.map((t) => (
              <span key={t.tag} className="inline-flex items-center gap-1">
                <TagLink tag={t.tag} />
                <span className="text-xs text-gray-500">({t.posts})</span>
              </span>
            ))}
          </p>
        </section>
        <section aria-labelledby="explore-months">
          <h2 id="explore-months" className="text-xl font-bold">
            Archive
          </h2>
          <ul className="mt-4 space-y-1">
            {months.map((m) => (
              <li key={m.month}>
                <Link to={`/month/${m.month}`} className="hover:text-primary-700 dark:hover:text-primary-400">
                  {monthLabel(m.month)}
                </Link>{' '}
                <span className="text-sm text-gray-500">({m.posts})</span>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </main>
  );
}
