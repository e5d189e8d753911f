import { PageLinks } from 'web/components/page-links';
import type { FormEvent } from 'react';
import { DIFFICULTIES, type Difficulty, type LevelListQuery } from 'src/contracts/levels';
import { Breadcrumbs, difficultyLabel, JsonLd } from 'web/components/level-bits';
import { LevelGrid } from 'web/components/level-grid';
import { PageSearchForm } from 'web/components/page-search-form';
import { levelSearchMessage } from 'web/components/level-search-form';
import { Seo } from 'web/components/seo';
import { usePageI18n } from 'web/i18n/page-messages';
import { useSiteConfig } from 'web/lib/root-data';
import { Link, useNavigate, useLoaderData } from 'web/lib/router/router';
import type loader from 'web/features/levels/levels.loader';

/** `/levels` with the given filters; page 1 and empty values are left out so URLs stay short. */
function listHref(query: Partial<LevelListQuery>): string {
  const params = new URLSearchParams();
  if (query.query) params.set('query', query.query);
  if (query.difficulty) params.set('difficulty', query.difficulty);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  const qs = params.toString();
  return qs ? `/levels?${qs}` : '/levels';
}

export default function LevelsPage() {
  const { list, message } = useLoaderData<typeof loader>();
  const { gameName, siteUrl, levels } = useSiteConfig();
  const { t } = usePageI18n();
  const { query } = list;
  const filters: (Difficulty | undefined)[] = [undefined, ...DIFFICULTIES];
  const navigate = useNavigate();
  // With JavaScript the search navigates in place; without, the form is a plain GET the server answers.
  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const words = String(new FormData(event.currentTarget).get('query') ?? '').trim();
    void navigate(listHref({ query: words || undefined, difficulty: query.difficulty }));
  };

  return (
    <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo
        title={t('levels.seoTitle', { game: gameName })}
        description={t('levels.seoDescription', { game: gameName, max: levels.searchableMax })}
      />
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'ItemList',
          name: t('levels.listName', { game: gameName }),
          itemListElement: list.levels.map((level, i) => ({
            '@type': 'ListItem',
            position: (list.page - 1) * 24 + i + 1,
            url: `${siteUrl}/levels/${level.number}`,
            name: t('level.heading', { level: level.number, title: level.title }),
          })),
        }}
      />
      <Breadcrumbs items={[{ label: t('menu.home'), to: '/' }, { label: t('menu.levels') }]} />
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight sm:text-4xl">{t('levels.title', { game: gameName })}</h1>
      <p className="mt-2 max-w-2xl text-gray-600 dark:text-gray-400">{t('levels.intro', { max: levels.searchableMax })}</p>

      <PageSearchForm
        landmark={t('levels.searchLabel')}
        id="levels-query"
        action="/levels"
        name="query"
        value={query.query ?? ''}
        placeholder={t('levels.searchPlaceholder')}
        onSearch={onSearch}
        className="max-w-xl"
      >
        {query.difficulty && <input type="hidden" name="difficulty" value={query.difficulty} />}
      </PageSearchForm>
      {message && (
        <p role="alert" className="mt-2 text-sm font-medium text-red-600 dark:text-red-400">
          {levelSearchMessage(message, t)}
        </p>
      )}

      <nav aria-label={t('levels.difficulty')} className="mt-6 flex flex-wrap gap-2">
        {filters.map((difficulty) => {
          const active = query.difficulty === difficulty;
          return (
            <Link
              key={difficulty ?? 'all'}
              to={listHref({ query: query.query, difficulty })}
              aria-current={active ? 'page' : undefined}
              className="rounded-full border border-gray-300 px-4 py-1.5 text-sm font-medium text-gray-700 hover:border-primary-500 aria-[current=page]:border-primary-700 aria-[current=page]:bg-primary-700 aria-[current=page]:text-white dark:border-gray-700 dark:text-gray-300 dark:aria-[current=page]:border-primary-500 dark:aria-[current=page]:bg-primary-500 dark:aria-[current=page]:text-gray-950"
            >
              {difficulty ? difficultyLabel(difficulty, t) : t('levels.allDifficulties')}{' '}
              <span className="font-normal">({list.counts[difficulty ?? 'all']})</span>
            </Link>
          );
        })}
      </nav>
      {query.difficulty === 'hard' && !query.query && (
        <Link to="/levels/hardest" className="mt-4 inline-block text-sm font-semibold text-primary-700 underline underline-offset-2 dark:text-primary-400">
          {t('levels.hardestLink')}
        </Link>
      )}

      {list.levels.length ? (
        <LevelGrid levels={list.levels} />
      ) : (
        <div className="mt-10 rounded-2xl border border-dashed border-gray-300 p-10 text-center dark:border-gray-700">
          {query.query ? (
            <>
              <p className="font-semibold">{t('levels.noMatchFor', { query: query.query })}</p>
              <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{t('levels.noMatchHint')}</p>
            </>
          ) : list.total > 0 ? (
            // Only a page number past the end empties an unsearched list.
            <>
              <p className="font-semibold">{t('levels.pastEnd', { page: list.page, pages: list.pageCount })}</p>
              <Link to={listHref({ difficulty: query.difficulty })} className="mt-2 inline-block text-sm font-medium text-primary-700 underline underline-offset-2 dark:text-primary-400">
                {t('levels.firstPage')}
              </Link>
            </>
          ) : (
            <p className="font-semibold">{t('levels.noGuides')}</p>
          )}
        </div>
      )}

      <PageLinks page={list.page} pageCount={list.pageCount} hrefFor={(page) => listHref({ ...query, page })} />
      <p className="mt-4 text-center text-sm text-gray-500 dark:text-gray-400">
        {t(list.total === 1 ? 'levels.countOne' : 'levels.count', { count: list.total })}
      </p>
    </main>
  );
}
