import type { ReactNode } from 'react';
import { ERROR_SCOPES, type ErrorGroupView, type ErrorScope } from 'src/contracts/ops';
import { Badge, cardClass, mutedClass } from 'web/components/account-ui';
import { Link, useLoaderData } from 'web/lib/router/router';
import { AdminFrame, utc } from 'web/features/ops/admin-frame';
import type loader from 'web/features/ops/admin-errors.loader';

const SCOPE_LABELS: Record<ErrorScope, string> = { all: 'All', client: 'Browser', server: 'Server' };

/** /admin/errors: the error groups, most recently seen first, client and server or one of them. */
export default function AdminErrorsPage() {
  const { scope, groups } = useLoaderData<typeof loader>();
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
