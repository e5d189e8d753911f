import { formatMonth } from 'src/contracts/dates';
import { Breadcrumbs } from 'web/components/level-bits';
import { LevelCard } from 'web/components/level-card';
import { TagLink } from 'web/components/post-list';
import { Seo } from 'web/components/seo';
import { usePageI18n } from 'web/i18n/page-messages';
import { Link, useLoaderData } from 'web/lib/router/router';
import type loader from 'web/features/content/explore.loader';

/**
 * /explore: the ways in — popular guides, the most used blog categories and the latest months of the
 * archive (capped, so the page stays the same size as the blog grows; older posts are a link away).
 */
export default function ExplorePage() {
  const { tags, months, tagCount, olderPostsPage, featured } = useLoaderData<typeof loader>();
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
          {tagCount > tags.length && <p className="mt-3 text-sm text-gray-600 dark:text-gray-400">{t('explore.moreCategories', { shown: tags.length, count: tagCount })}</p>}
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
          {olderPostsPage !== undefined && (
            <Link to={`/blog?page=${olderPostsPage}`} className="mt-3 inline-block text-sm font-semibold text-primary-700 hover:underline dark:text-primary-400">
              {t('explore.olderPosts')}
            </Link>
          )}
        </section>
      </div>
    </main>
  );
}
