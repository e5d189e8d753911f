import { linkClass, mutedClass } from 'web/components/account-ui';
import { useLoaderData } from 'web/lib/router/router';
import { AdminFrame, codeClass } from 'web/features/ops/admin-frame';
import type loader from 'web/features/ops/admin-queues.loader';

const COUNT_COLUMNS = ['waiting', 'active', 'delayed', 'completed', 'failed'] as const;

/** /admin/queues without Redis: the web process runs the jobs, so only it knows its queues. */
export default function AdminQueuesPage() {
  const { mode, queues } = useLoaderData<typeof loader>();
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
