import type { ReactNode } from 'react';
import { ERROR_SCOPES, type AdminErrorsData, type AdminOverviewData, type AdminQueuesData, type ErrorGroupView, type ErrorScope } from 'src/contracts/ops';
import { Badge, cardClass, linkClass, mutedClass } from 'web/components/account-ui';
import { Breadcrumbs } from 'web/components/level-bits';
import { Seo } from 'web/components/seo';
import { Link, usePageData } from 'web/lib/router/router';

/*
 * The ops screens, for admins only (the server renders them for accounts with the admin role and
 * answers the 404 page to anyone else): /admin, /admin/errors and, without Redis, /admin/queues.
 * Their copy is English only, like the dashboards and logs ops read beside them. Everything shown
 * is text React escapes (messages and backtraces come from browsers): no raw HTML here.
 */

const ADMIN = 'Admin';
const codeClass = 'rounded bg-gray-100 px-1 py-0.5 font-mono text-[0.85em] dark:bg-gray-800';

/** "2026-11-23 19:16:29 UTC": the same on the server and in every browser. */
const utc = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

function AdminFrame({ title, crumb, children }: { title: string; crumb?: string; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-5xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={crumb ? `${crumb} · ${ADMIN}` : ADMIN} noindex />
      {crumb && <Breadcrumbs items={[{ label: ADMIN, to: '/admin' }, { label: crumb }]} />}
      <h1 className={`text-3xl font-extrabold tracking-tight sm:text-4xl ${crumb ? 'mt-6' : ''}`}>{title}</h1>
      {children}
    </main>
  );
}

/** /admin: where the ops screens are. */
export function AdminPage() {
  const { queueMode, payments } = usePageData<AdminOverviewData>();
  const entries: { title: string; href: string; internal?: boolean; text: ReactNode }[] = [
    ...(payments
      ? [
          {
            title: 'Orders',
            href: '/admin/orders',
            internal: true,
            text: "Find an order by the buyer's email, its number or its status; see its credits, refunds and payment events; refund it or grant credits.",
          },
        ]
      : []),
    {
      title: 'Queue dashboard',
      // A full page load: with Redis the path belongs to bull-board, not to this router.
      href: '/admin/queues',
      text:
        queueMode === 'redis' ? (
          'Every BullMQ queue in Redis (mail, images): counts, jobs and their details, retry and clean.'
        ) : (
          <>
            Jobs run in this web process (<code className={codeClass}>REDIS_URL</code> is not set): its queues&apos; counts.
          </>
        ),
    },
    {
      title: 'Errors',
      href: '/admin/errors',
      internal: true,
      text: 'Error groups from browsers and from the server: how often, first and last seen, build, path and a sample backtrace.',
    },
    {
      title: 'Metrics',
      href: '/metrics',
      text: (
        <>
          Prometheus metrics, never public: send <code className={codeClass}>METRICS_TOKEN</code> as a bearer token, or, while it
          is unset, read them from loopback.
        </>
      ),
    },
    {
      title: 'API',
      href: '/api/docs',
      text: (
        <>
          The OpenAPI document, browsable; the JSON is at <code className={codeClass}>/api/docs/openapi.json</code>.
        </>
      ),
    },
  ];
  return (
    <AdminFrame title={ADMIN}>
      <p className={`mt-3 text-lg ${mutedClass}`}>The site&apos;s ops screens. Only admins see them: the accounts in ADMIN_EMAILS (and, in the local try-out, the first account confirmed).</p>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2">
        {entries.map((entry) => (
          <li key={entry.href} className={cardClass}>
            <h2 className="text-lg font-semibold">
              {entry.internal ? (
                <Link to={entry.href} className={linkClass}>
                  {entry.title}
                </Link>
              ) : (
                <a href={entry.href} className={linkClass}>
                  {entry.title}
                </a>
              )}
            </h2>
            <p className={`mt-2 text-sm ${mutedClass}`}>{entry.text}</p>
          </li>
        ))}
      </ul>
    </AdminFrame>
  );
}

const SCOPE_LABELS: Record<ErrorScope, string> = { all: 'All', client: 'Browser', server: 'Server' };

/** /admin/errors: the error groups, most recently seen first, client and server or one of them. */
export function AdminErrorsPage() {
  const { scope, groups } = usePageData<AdminErrorsData>();
  return (
    <AdminFrame title="Errors" crumb="Errors">
      <nav aria-label="Which errors" className="mt-6 flex flex-wrap gap-2">
        {ERROR_SCOPES.map((option) => (
          <Link
            key={option}
            to={option === 'all' ? '/admin/errors' : `/admin/errors?scope=${option}`}
            aria-current={option === scope ? 'page' : undefined}
            className={`rounded-full px-4 py-1.5 text-sm font-semibold ring-1 ring-inset ${
              option === scope
                ? 'bg-primary-700 text-white ring-primary-600 dark:bg-primary-500 dark:text-gray-950 dark:ring-primary-500'
                : 'text-gray-700 ring-gray-300 hover:bg-gray-50 dark:text-gray-200 dark:ring-gray-700 dark:hover:bg-gray-800'
            }`}
          >
            {SCOPE_LABELS[option]}
          </Link>
        ))}
      </nav>
      {groups.length === 0 ? (
        <p className={`${cardClass} mt-6 text-center ${mutedClass}`}>No errors recorded{scope === 'all' ? '' : ` (${SCOPE_LABELS[scope].toLowerCase()})`}.</p>
      ) : (
        <>
          <p className={`mt-4 text-sm ${mutedClass}`}>
            {groups.length} group{groups.length === 1 ? '' : 's'}, most recently seen first.
          </p>
          <ol className="mt-4 space-y-4" data-testid="error-groups">
            {groups.map((group) => (
              <ErrorGroup key={group.fingerprint} group={group} />
            ))}
          </ol>
        </>
      )}
    </AdminFrame>
  );
}

function ErrorGroup({ group }: { group: ErrorGroupView }) {
  const facts: [string, ReactNode][] = [
    ['Last seen', <time dateTime={group.last_seen_at}>{utc(group.last_seen_at)}</time>],
    ['First seen', <time dateTime={group.first_seen_at}>{utc(group.first_seen_at)}</time>],
    ['Path', group.path ?? '—'],
    ['Build', group.build_id ?? '—'],
  ];
  return (
    <li className={`${cardClass} min-w-0 !p-5`}>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={group.error_type === 'SERVER_ERROR' ? 'red' : 'amber'}>{group.error_type}</Badge>
        <span className="text-sm font-semibold tabular-nums">
          {group.count.toLocaleString('en-US')} time{group.count === 1 ? '' : 's'}
        </span>
      </div>
      <p className="mt-3 font-mono text-sm break-words whitespace-pre-wrap">{group.message}</p>
      <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className={mutedClass}>{label}</dt>
            <dd className="min-w-0 font-mono break-all max-sm:mb-1">{value}</dd>
          </div>
        ))}
      </dl>
      {group.backtrace && (
        <details className="mt-3">
          <summary className="cursor-pointer text-sm font-semibold text-primary-700 dark:text-primary-400">Backtrace</summary>
          <pre className="mt-2 max-h-80 overflow-auto rounded-xl bg-gray-50 p-3 text-xs leading-relaxed dark:bg-gray-950">{group.backtrace}</pre>
        </details>
      )}
    </li>
  );
}

const COUNT_COLUMNS = ['waiting', 'active', 'delayed', 'completed', 'failed'] as const;

/** /admin/queues without Redis: the web process runs the jobs, so only it knows its queues. */
export function AdminQueuesPage() {
  const { mode, queues } = usePageData<AdminQueuesData>();
  if (mode === 'redis') {
    return (
      <AdminFrame title="Queues" crumb="Queues">
        <p className={`mt-3 ${mutedClass}`}>
          Jobs live in Redis and the worker runs them: <a href="/admin/queues" className={linkClass}>open the queue dashboard</a>.
        </p>
      </AdminFrame>
    );
  }
  return (
    <AdminFrame title="Queues" crumb="Queues">
      <p className={`mt-3 max-w-3xl ${mutedClass}`}>
        Jobs run in this web process: <code className={codeClass}>REDIS_URL</code> is not set, so there is no worker and no queue
        dashboard. These are its in-memory queues right now; completed and failed count since the process started. A job still
        waiting when the process stops is dropped (mail waits in the outbox and is sent after the next start).
      </p>
      {/* On phones each queue is a card of "label: count" lines. */}
      <div className="mt-6 overflow-x-auto rounded-3xl border border-gray-200 bg-white shadow-sm dark:border-gray-800 dark:bg-gray-900/60">
        <table className="w-full text-left text-sm max-sm:block" data-testid="inline-queues">
          <thead className="bg-gray-50 text-xs tracking-wide text-gray-500 uppercase max-sm:sr-only dark:bg-gray-900 dark:text-gray-400">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Queue
              </th>
              {COUNT_COLUMNS.map((column) => (
                <th key={column} scope="col" className="px-4 py-3 text-right font-semibold">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-200 max-sm:block dark:divide-gray-800">
            {queues.map((queue) => (
              <tr key={queue.name} className="max-sm:block max-sm:px-5 max-sm:py-4">
                <th scope="row" className="px-4 py-3 font-mono font-semibold max-sm:block max-sm:px-0 max-sm:pt-0">
                  {queue.name}
                </th>
                {COUNT_COLUMNS.map((column) => (
                  <td
                    key={column}
                    data-label={column}
                    className="px-4 py-3 text-right tabular-nums max-sm:flex max-sm:justify-between max-sm:px-0 max-sm:py-0.5 max-sm:before:text-gray-500 max-sm:before:content-[attr(data-label)] dark:max-sm:before:text-gray-400"
                  >
                    {queue[column].toLocaleString('en-US')}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-4 text-sm">
        <a href="/admin/queues" className={linkClass}>
          Refresh
        </a>
      </p>
    </AdminFrame>
  );
}
