import type { ReactNode } from 'react';
import type { AdminAttentionData } from 'src/contracts/ops';
import { cardClass, linkClass, mutedClass } from 'web/components/account-ui';
import { Link, useLoaderData } from 'web/lib/router/router';
import { ADMIN, AdminFrame, codeClass, utc } from 'web/features/ops/admin-frame';
import type loader from 'web/features/ops/admin.loader';

/** /admin: where the ops screens are. */
export default function AdminPage() {
  const { queueMode, payments, attention } = useLoaderData<typeof loader>();
  const entries: { title: string; href: string; internal?: boolean; text: ReactNode }[] = [
    {
      title: 'Guides',
      href: '/admin/guides',
      internal: true,
      text: 'Every guide with its views, helpful share and reasons, open reports (mark them handled) and solved/stuck counts, worst first; and the most requested levels without a guide.',
    },
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
      <AttentionSection attention={attention} />
    </AdminFrame>
  );
}

/** What needs an operator now: Redis refusing writes, and mail the outbox gave up on (kept 7 days). */
function AttentionSection({ attention }: { attention: AdminAttentionData }) {
  return (
    <section className="mt-10" aria-labelledby="attention">
      <h2 id="attention" className="text-xl font-semibold">
        Needs attention
      </h2>
      {attention.redis_problem && <p className="mt-3 font-semibold text-red-700 dark:text-red-400">Redis: {attention.redis_problem}</p>}
      {attention.mail_given_up.length === 0 ? (
        <p className={`mt-3 text-sm ${mutedClass}`}>No mail given up in the last 7 days.</p>
      ) : (
        <>
          <p className={`mt-3 text-sm ${mutedClass}`}>Mail given up (not sent again; kept 7 days), newest first:</p>
          <table className="mt-2 w-full text-left text-sm">
            <thead>
              <tr>
                <th>Subject</th>
                <th>Written</th>
                <th>Given up</th>
                <th>Attempts</th>
                <th>Last error</th>
              </tr>
            </thead>
            <tbody>
              {attention.mail_given_up.map((mail) => (
                <tr key={mail.id}>
                  <td>{mail.subject}</td>
                  <td>{utc(mail.created_at)}</td>
                  <td>{utc(mail.failed_at)}</td>
                  <td>{mail.attempts}</td>
                  <td>
                    <code className={codeClass}>{mail.last_error}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
