import type { ReactNode } from 'react';
import { formatDate } from 'src/contracts/dates';
import type { SearchGroup, Segment } from 'src/contracts/search';
import { difficultyLabel } from 'web/components/level-bits';
import { usePageI18n } from 'web/i18n/page-messages';
import { Link } from 'web/lib/router/router';

/** Text in segments, the matches inside <mark>: every piece is a text node, so nothing in it is HTML. */
export function Highlighted({ segments }: { segments: Segment[] }) {
  return segments.map((segment, i) =>
    segment.mark ? (
      <mark key={i} className="rounded-sm bg-amber-200 px-0.5 text-gray-950 dark:bg-amber-300/25 dark:text-amber-50">
        {segment.text}
      </mark>
    ) : (
      segment.text
    ),
  );
}

const GROUP_TITLES = { levels: 'search.group.levels', posts: 'search.group.posts', pages: 'search.group.pages' } as const;

/** One kind's hits: a heading with the count, the hits best first, and a link to the whole list when more matched. */
export function SearchGroupSection({ group, more }: { group: SearchGroup; more?: { to: string; label: string } }) {
  const { t, tag } = usePageI18n();
  const headingId = `search-${group.kind}`;
  const hits: { url: string; kicker: ReactNode; title: Segment[]; snippet: Segment[] }[] =
    group.kind === 'levels'
      ? group.hits.map((hit) => ({ ...hit, kicker: `${t('search.levelKicker', { level: hit.number })} · ${difficultyLabel(hit.difficulty, t)}` }))
      : group.kind === 'posts'
        ? group.hits.map((hit) => ({ ...hit, kicker: <time dateTime={hit.publishedAt}>{formatDate(hit.publishedAt, tag)}</time> }))
        : group.hits.map((hit) => ({ ...hit, kicker: t('search.pageKicker') }));
  return (
    <section aria-labelledby={headingId} className="mt-10">
      <h2 id={headingId} className="flex items-baseline gap-2 text-xl font-bold tracking-tight">
        {t(GROUP_TITLES[group.kind])}
        <span className="text-sm font-medium text-gray-500 dark:text-gray-400">
          {group.total > group.hits.length ? t('search.groupCount', { shown: group.hits.length, total: group.total }) : `(${group.total})`}
        </span>
      </h2>
      <ul className="mt-4 space-y-3">
        {hits.map((hit) => (
            <li key={hit.url} className="rounded-2xl border border-gray-200 p-4 transition hover:border-primary-500 dark:border-gray-800 dark:hover:border-primary-500">
              <p className="text-xs font-semibold tracking-wide text-gray-500 uppercase dark:text-gray-400">{hit.kicker}</p>
              <h3 className="mt-1 text-lg font-bold">
                <Link to={hit.url} className="hover:text-primary-700 dark:hover:text-primary-400">
                  <Highlighted segments={hit.title} />
                </Link>
              </h3>
              {hit.snippet.length > 0 && (
                <p className="mt-1 text-sm leading-6 text-gray-600 dark:text-gray-300">
                  <Highlighted segments={hit.snippet} />
                </p>
              )}
            </li>
        ))}
      </ul>
      {more && (
        <Link to={more.to} className="mt-3 inline-block text-sm font-semibold text-primary-700 underline underline-offset-2 dark:text-primary-400">
          {more.label}
        </Link>
      )}
    </section>
  );
}
