import { DIFFICULTIES, DIFFICULTY_LABELS, type Difficulty, type LevelListData, type LevelListQuery } from 'src/contracts/levels';
import { Icon } from 'web/components/icons';
import { Breadcrumbs, JsonLd, LevelCard } from 'web/components/level-bits';
import { Seo } from 'web/components/seo';
import { useSiteConfig } from 'web/lib/root-data';
import { Link, usePageData } from 'web/lib/router/router';

export interface LevelsPageData {
  list: LevelListData;
  /** The level-search message when a plain (no-JavaScript) search was not a valid number. */
  message?: string;
}

/** `/levels` with the given filters; page 1 and empty values are left out so URLs stay short. */
function listHref(query: Partial<LevelListQuery>): string {
  const params = new URLSearchParams();
  if (query.query) params.set('query', query.query);
  if (query.difficulty) params.set('difficulty', query.difficulty);
  if (query.page && query.page > 1) params.set('page', String(query.page));
  const qs = params.toString();
  return qs ? `/levels?${qs}` : '/levels';
}

export function LevelsPage() {
  const { list, message } = usePageData<LevelsPageData>();
  const { gameName, siteUrl, levels } = useSiteConfig();
  const { query } = list;
  const filters: (Difficulty | undefined)[] = [undefined, ...DIFFICULTIES];

  return (
    <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo
        title={`All ${gameName} Levels: Solutions and Hints`}
        description={`Find the walkthrough of any ${gameName} level from 1 to ${levels.searchableMax}: search by number or by what you see in the room, or browse by difficulty.`}
      />
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'ItemList',
          name: `${gameName} level guides`,
          itemListElement: list.levels.map((level, i) => ({
            '@type': 'ListItem',
            position: (list.page - 1) * 24 + i + 1,
            url: `${siteUrl}/levels/${level.number}`,
            name: `Level ${level.number}: ${level.title}`,
          })),
        }}
      />
      <Breadcrumbs items={[{ label: 'Home', to: '/' }, { label: 'Levels' }]} />
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight sm:text-4xl">All {gameName} levels</h1>
      <p className="mt-2 max-w-2xl text-gray-600 dark:text-gray-400">
        Solutions for levels 1 to {levels.searchableMax}. Type a level number to jump to it, or words to search the guides.
      </p>

      <form role="search" action="/levels" method="get" className="mt-6 flex max-w-xl gap-2">
        <label htmlFor="levels-query" className="sr-only">
          Level number or words
        </label>
        <input
          id="levels-query"
          name="query"
          type="search"
          maxLength={100}
          defaultValue={query.query ?? ''}
          placeholder="Level number or words, e.g. telescope"
          className="min-w-0 flex-1 rounded-full border border-gray-300 bg-white px-4 py-2.5 outline-none focus:border-primary-500 focus:ring-2 focus:ring-primary-500/30 dark:border-gray-700 dark:bg-gray-900"
        />
        {query.difficulty && <input type="hidden" name="difficulty" value={query.difficulty} />}
        <button type="submit" className="inline-flex items-center gap-2 rounded-full bg-primary-600 px-5 font-semibold text-white hover:bg-primary-700 dark:bg-primary-500 dark:text-gray-950">
          <Icon name="search" className="size-4" />
          <span className="hidden sm:inline">Search</span>
        </button>
      </form>
      {message && (
        <p role="alert" className="mt-2 text-sm font-medium text-red-600 dark:text-red-400">
          {message}
        </p>
      )}

      <nav aria-label="Difficulty" className="mt-6 flex flex-wrap gap-2">
        {filters.map((difficulty) => {
          const active = query.difficulty === difficulty;
          return (
            <Link
              key={difficulty ?? 'all'}
              to={listHref({ query: query.query, difficulty })}
              aria-current={active ? 'page' : undefined}
              className="rounded-full border border-gray-300 px-4 py-1.5 text-sm font-medium text-gray-700 hover:border-primary-500 aria-[current=page]:border-primary-600 aria-[current=page]:bg-primary-600 aria-[current=page]:text-white dark:border-gray-700 dark:text-gray-300 dark:aria-[current=page]:border-primary-500 dark:aria-[current=page]:bg-primary-500 dark:aria-[current=page]:text-gray-950"
            >
              {difficulty ? DIFFICULTY_LABELS[difficulty] : 'All'}{' '}
              <span className="opacity-70">({list.counts[difficulty ?? 'all']})</span>
            </Link>
          );
        })}
      </nav>

      {list.levels.length ? (
        <ul className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
          {list.levels.map((level) => (
            <li key={level.number}>
              <LevelCard level={level} />
            </li>
          ))}
        </ul>
      ) : (
        <div className="mt-10 rounded-2xl border border-dashed border-gray-300 p-10 text-center dark:border-gray-700">
          <p className="font-semibold">No guides match{query.query ? ` "${query.query}"` : ''}.</p>
          <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">Try other words, or type the level number.</p>
        </div>
      )}

      {list.pageCount > 1 && (
        <nav aria-label="Pages" className="mt-8 flex items-center justify-center gap-1">
          {Array.from({ length: list.pageCount }, (_, i) => i + 1).map((page) => (
            <Link
              key={page}
              to={listHref({ ...query, page })}
              aria-current={page === list.page ? 'page' : undefined}
              className="flex size-10 items-center justify-center rounded-full text-sm font-semibold text-gray-700 hover:bg-gray-100 aria-[current=page]:bg-primary-600 aria-[current=page]:text-white dark:text-gray-300 dark:hover:bg-gray-800 dark:aria-[current=page]:bg-primary-500 dark:aria-[current=page]:text-gray-950"
            >
              {page}
            </Link>
          ))}
        </nav>
      )}
      <p className="mt-4 text-center text-sm text-gray-500 dark:text-gray-400">
        {list.total} guide{list.total === 1 ? '' : 's'}
      </p>
    </main>
  );
}
