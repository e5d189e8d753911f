import type { FormEvent } from 'react';
import type { SearchGroup, SearchResults } from 'src/contracts/search';
import { Breadcrumbs } from 'web/components/level-bits';
import { levelSearchMessage } from 'web/components/level-search-form';
import { PageSearchForm } from 'web/components/page-search-form';
import { Seo } from 'web/components/seo';
import { usePageI18n, type PageTranslate } from 'web/i18n/page-messages';
import { Link, useLoaderData, useNavigate } from 'web/lib/router/router';
import { SearchGroupSection } from 'web/features/search/search-hits';
import type loader from 'web/features/search/search.loader';

const searchHref = (query: string) => `/search?q=${encodeURIComponent(query)}`;

/** The whole list a group shows the start of: the guides' and the blog's own searches take the same words. */
function moreLink(group: SearchGroup, results: SearchResults, t: PageTranslate) {
  if (group.total <= group.hits.length || results.match !== 'all') return undefined;
  const query = encodeURIComponent(results.searched);
  if (group.kind === 'levels') return { to: `/levels?query=${query}`, label: t('search.allLevels', { total: group.total }) };
  if (group.kind === 'posts') return { to: `/blog?query=${query}`, label: t('search.allPosts', { total: group.total }) };
  return undefined;
}

/** What the search did with the words: corrections, words left out, results with only some words. */
function SearchNotes({ results }: { results: SearchResults }) {
  const { t } = usePageI18n();
  return (
    <div className="mt-6 space-y-1 text-sm text-gray-700 dark:text-gray-300">
      {results.corrections.length > 0 && (
        <p>
          {t('search.showingFor')} <strong className="font-semibold text-gray-950 dark:text-white">{results.searched}</strong>.{' '}
          {t('search.youTyped', { typed: results.corrections.map((c) => c.from).join(' ') })}
        </p>
      )}
      {results.unknown.length > 0 && results.searched && <p>{t('search.leftOut', { words: results.unknown.join(' ') })}</p>}
      {results.match === 'any' && results.groups.length > 0 && <p>{t('search.someWords')}</p>}
    </div>
  );
}

export default function SearchPage() {
  const { query, results, message } = useLoaderData<typeof loader>();
  const { t } = usePageI18n();
  const navigate = useNavigate();
  // With JavaScript the search navigates in place (a number lands on its guide); without, the form is a plain GET.
  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void navigate(searchHref(String(new FormData(event.currentTarget).get('q') ?? '').trim()));
  };

  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={query ? t('search.titleFor', { query }) : t('search.title')} description={t('search.seoDescription')} noindex />
      <Breadcrumbs items={[{ label: t('menu.home'), to: '/' }, { label: t('search.title') }]} />
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight sm:text-4xl">{t('search.title')}</h1>
      <p className="mt-2 text-gray-600 dark:text-gray-400">{t('search.intro')}</p>

      <PageSearchForm
        landmark={t('search.pageLandmark')}
        label={t('search.pageLabel')}
        id="search-query"
        action="/search"
        name="q"
        value={query}
        placeholder={t('search.pageLabel')}
        onSearch={onSearch}
        messageId={message ? 'search-message' : undefined}
      />
      {message && (
        <p id="search-message" role="alert" className="mt-2 text-sm font-medium text-red-600 dark:text-red-400">
          {levelSearchMessage(message, t)}
        </p>
      )}

      {results && <SearchNotes results={results} />}
      {results?.groups.map((group) => <SearchGroupSection key={group.kind} group={group} more={moreLink(group, results, t)} />)}
      {results && results.groups.length === 0 && (
        <div className="mt-10 rounded-2xl border border-dashed border-gray-300 p-10 text-center dark:border-gray-700">
          <p className="font-semibold">{t('search.noneFor', { query: results.query })}</p>
          <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{t('search.noneHint')}</p>
          <p className="mt-4 flex flex-wrap justify-center gap-4 text-sm font-semibold">
            <Link to="/levels" className="text-primary-700 underline underline-offset-2 dark:text-primary-400">
              {t('search.browseLevels')}
            </Link>
            <Link to="/blog" className="text-primary-700 underline underline-offset-2 dark:text-primary-400">
              {t('search.browseBlog')}
            </Link>
          </p>
        </div>
      )}
    </main>
  );
}
