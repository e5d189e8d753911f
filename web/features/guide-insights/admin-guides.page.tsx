import type { ReactNode } from 'react';
import { DEFAULT_DIRECTION, type GuideInsightRow, type GuideInsightsQuery, type GuideSort } from 'src/contracts/guide-insights';
import { DIFFICULTY_LABELS } from 'src/contracts/levels';
import { cardClass, linkClass, mutedClass } from 'web/components/account-ui';
import { PageLinks } from 'web/components/page-links';
import { stackedBody, stackedLine, stackedRow, stackedTable } from 'web/components/stacked-table';
import { Link, useLoaderData, useLocation, useNavigate } from 'web/lib/router/router';
import { AdminFrame, utc } from 'web/features/ops/admin-frame';
import { LadderStopsCell } from 'web/features/guide-insights/ladder-stops';
import { OpenReports } from 'web/features/guide-insights/open-reports';
import type loader from 'web/features/guide-insights/admin-guides.loader';

/** /admin/guides?sort=...: the default parameters left out. */
function guidesHref({ sort, dir, page }: GuideInsightsQuery): string {
  const params = new URLSearchParams();
  if (sort !== 'worst') params.set('sort', sort);
  if (dir !== DEFAULT_DIRECTION[sort]) params.set('dir', dir);
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return `/admin/guides${query ? `?${query}` : ''}`;
}

const number = (value: number) => value.toLocaleString('en-US');
/** The guide column stays in view while a narrow window scrolls the table sideways (an opaque background: the rest passes under it). */
const STICKY = 'sm:sticky sm:left-0 sm:z-10 sm:bg-white sm:dark:bg-gray-900';
/** On a phone the tables are cards (web/components/stacked-table), and the sortable headers a row of sort links above them. */
const tableClass = 'mt-3 rounded-3xl border border-gray-200 bg-white shadow-sm sm:overflow-x-auto dark:border-gray-800 dark:bg-gray-900';
const phoneSortHead = 'border-b border-gray-200 text-left max-sm:block dark:border-gray-800';
const phoneSortRow =
  "max-sm:flex max-sm:flex-wrap max-sm:gap-x-4 max-sm:gap-y-1 max-sm:px-4 max-sm:py-3 max-sm:before:font-normal max-sm:before:text-gray-600 max-sm:before:content-['Sort_by:'] dark:max-sm:before:text-gray-400";
/** A number cell: right-aligned in the table; a labelled line of the card on a phone. */
const cardLine = `px-3 py-2 text-right ${stackedLine}`;
const REASONS = [
  ['unclear_step', 'unclear step'],
  ['different_version', 'other version'],
  ['wrong', 'wrong'],
  ['none', 'no reason'],
] as const;

/**
 * /admin/guides: every published guide with what players said (helpful share, reasons, open
 * reports) and did (views, solved, stuck), worst first or sorted by a column; then the levels
 * without a guide that players asked for most.
 */
export default function AdminGuidesPage() {
  const { query, guides, wanted, recent_days, min_votes } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  // After a report is marked handled: this page's data again (admin pages are never cached).
  const reload = () => void navigate(`${pathname}${search}`, { replace: true });
  const column = (sort: GuideSort, label: ReactNode, align = 'text-right') => {
    const active = query.sort === sort;
    const dir = active ? (query.dir === 'asc' ? 'desc' : 'asc') : DEFAULT_DIRECTION[sort];
    return (
      <th scope="col" aria-sort={active ? (query.dir === 'asc' ? 'ascending' : 'descending') : undefined} className={`px-3 py-2 font-semibold max-sm:p-0 ${align}`}>
        <Link to={guidesHref({ sort, dir, page: 1 })} className="hover:underline max-sm:text-primary-700 max-sm:underline max-sm:underline-offset-2 dark:max-sm:text-primary-400">
          {label}
          {active && <span aria-hidden="true">{query.dir === 'asc' ? ' ↑' : ' ↓'}</span>}
        </Link>
      </th>
    );
  };
  const withReports = guides.items.filter((guide) => guide.open_reports > 0);
  return (
    <AdminFrame title="Guides" crumb="Guides">
      <p className={`mt-3 ${mutedClass}`}>
        What players say and do about each guide. Views are guide page loads by people (not bots, prefetches or moves within the site), counted by
        each web process and written every minute. The helpful share shows from {min_votes} answers, as on the guide page.
      </p>
      <nav aria-label="Order" className="mt-6 flex flex-wrap items-center gap-3 text-sm">
        <Link
          to={guidesHref({ sort: 'worst', dir: 'desc', page: 1 })}
          aria-current={query.sort === 'worst' && query.dir === 'desc' ? 'page' : undefined}
          className="rounded-full px-4 py-1.5 font-semibold ring-1 ring-gray-300 ring-inset hover:bg-gray-50 aria-[current=page]:bg-primary-700 aria-[current=page]:text-white aria-[current=page]:ring-primary-600 dark:ring-gray-700 dark:hover:bg-gray-800 dark:aria-[current=page]:bg-primary-500 dark:aria-[current=page]:text-gray-950"
        >
          Worst first
        </Link>
        <span className={mutedClass}>most open reports, then the lowest helpful share, the most stuck, the most viewed; or sort by a column.</span>
      </nav>

      <section aria-labelledby="guides-title" className="mt-6">
        <h2 id="guides-title" className="text-xl font-bold">
          {number(guides.total)} guide{guides.total === 1 ? '' : 's'}
        </h2>
        {guides.items.length === 0 ? (
          <p className={`${cardClass} mt-3 text-center ${mutedClass}`}>{guides.total ? 'No guides on this page.' : 'No published guides.'}</p>
        ) : (
          <div className={tableClass}>
            <table className={`${stackedTable} sm:min-w-[56rem]`} data-testid="admin-guides">
              <thead className={phoneSortHead}>
                <tr className={phoneSortRow}>
                  {column('level', 'Guide', `text-left ${STICKY}`)}
                  {column('views', `Views, ${recent_days} d`)}
                  {column('views_total', 'Views, all')}
                  {column('helpful', 'Helpful')}
                  {column('votes', 'Answers (no: why)', 'text-left')}
                  {column('reports', 'Open reports')}
                  {column('solved', 'Solved')}
                  {column('stuck', 'Stuck')}
                  <th scope="col" className="px-3 py-2 text-left font-semibold max-sm:hidden">
                    Stuck most at
                  </th>
                </tr>
              </thead>
              <tbody className={stackedBody}>
                {guides.items.map((guide) => (
                  <GuideRow key={guide.level} guide={guide} recentDays={recent_days} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        <PageLinks page={guides.page} pageCount={guides.pages} hrefFor={(page) => guidesHref({ ...query, page })} className="mt-4" />
      </section>

      {withReports.length > 0 && <OpenReports guides={withReports} onChange={reload} />}

      <section aria-labelledby="wanted-title" className="mt-10">
        <h2 id="wanted-title" className="text-xl font-bold">
          Most requested levels without a guide
        </h2>
        <p className={`mt-1 text-sm ${mutedClass}`}>
          &ldquo;Request this guide&rdquo; votes, one per browser, most requested first: the list <code>npm run content:wanted</code> prints.
        </p>
        {wanted.length === 0 ? (
          <p className={`${cardClass} mt-3 text-center ${mutedClass}`}>No guide requests yet.</p>
        ) : (
          <div className={tableClass}>
            <table className={stackedTable} data-testid="admin-wanted">
              <thead className="border-b border-gray-200 text-left max-sm:sr-only dark:border-gray-800">
                <tr>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    Level
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-semibold">
                    Requests
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-semibold">
                    Last asked
                  </th>
                </tr>
              </thead>
              <tbody className={stackedBody}>
                {wanted.map((row) => (
                  <tr key={row.level} className={stackedRow}>
                    <td className="px-3 py-2 whitespace-nowrap max-sm:block max-sm:p-0 max-sm:font-semibold">
                      <Link to={`/levels/${row.level}`} className={linkClass}>
                        Level {row.level}
                      </Link>
                    </td>
                    <td data-label="Requests" className={`${cardLine} tabular-nums`}>
                      {number(row.requests)}
                    </td>
                    <td data-label="Last asked" className={`${cardLine} whitespace-nowrap ${mutedClass}`}>
                      <time dateTime={row.last_requested_at}>{utc(row.last_requested_at)}</time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </AdminFrame>
  );
}

function GuideRow({ guide, recentDays }: { guide: GuideInsightRow; recentDays: number }) {
  const reasons = REASONS.filter(([key]) => guide.not_helpful_reasons[key] > 0);
  const cell = `${cardLine} tabular-nums`;
  return (
    <tr data-level={guide.level} className={stackedRow}>
      <td className={`px-3 py-2 max-sm:block max-sm:p-0 max-sm:pb-1 ${STICKY}`}>
        <Link to={`/levels/${guide.level}`} className={linkClass}>
          Level {guide.level}
        </Link>
        <span className={`block ${mutedClass}`}>
          {guide.title} · {DIFFICULTY_LABELS[guide.difficulty]}
        </span>
      </td>
      <td data-label={`Views, ${recentDays} d`} className={cell}>
        {number(guide.views_recent)}
      </td>
      <td data-label="Views, all" className={cell}>
        {number(guide.views_total)}
      </td>
      <td data-label="Helpful" className={cell}>
        {guide.helpful_percent === null ? <span className={mutedClass}>—</span> : `${guide.helpful_percent}%`}
      </td>
      <td data-label="Answers (no: why)" className={`${cardLine} sm:text-left`}>
        <span>
          <span className="tabular-nums">{number(guide.votes)}</span>
          {reasons.length > 0 && (
            <span className={`block text-xs ${mutedClass}`}>{reasons.map(([key, label]) => `${guide.not_helpful_reasons[key]} ${label}`).join(' · ')}</span>
          )}
        </span>
      </td>
      <td data-label="Open reports" className={cell}>
        {guide.open_reports > 0 ? (
          <a href={`#reports-${guide.level}`} className={linkClass}>
            {number(guide.open_reports)}
          </a>
        ) : (
          0
        )}
      </td>
      <td data-label="Solved" className={cell}>
        {number(guide.solved)}
      </td>
      <td data-label="Stuck" className={cell}>
        {number(guide.stuck)}
      </td>
      <td data-label="Stuck most at" className={`${cardLine} sm:max-w-64`}>
        <LadderStopsCell guide={guide} />
      </td>
    </tr>
  );
}
