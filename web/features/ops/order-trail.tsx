import type { ReactNode } from 'react';
import { type AdminOrderDetail } from 'src/contracts/billing';
import { formatUsd } from 'web/lib/money';
import { mutedClass } from 'web/components/account-ui';
import { utc } from 'web/features/ops/admin-orders-common';

/** What happened to the order: its credits (granted, spent, taken back, by whom), its refunds and the gateway's events. */
export function Trail({ detail }: { detail: AdminOrderDetail }) {
  const table = (title: string, head: string[], rows: ReactNode[][], testId: string) => (
    <section aria-labelledby={`${testId}-title`} className="mt-8">
      <h2 id={`${testId}-title`} className="text-xl font-bold">
        {title}
      </h2>
      {rows.length === 0 ? (
        <p className={`mt-2 text-sm ${mutedClass}`}>None.</p>
      ) : (
        <div className="mt-3 overflow-x-auto rounded-3xl border border-gray-200 bg-white shadow-sm dark:border-gray-800 dark:bg-gray-900/60">
          <table className="w-full text-left text-sm" data-testid={testId}>
            <thead className="bg-gray-50 text-xs tracking-wide text-gray-600 uppercase dark:bg-gray-900 dark:text-gray-400">
              <tr>
                {head.map((h) => (
                  <th key={h} scope="col" className="px-4 py-2.5 font-semibold whitespace-nowrap">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-200 dark:divide-gray-800">
              {rows.map((cells, i) => (
                <tr key={i}>
                  {cells.map((cell, j) => (
                    <td key={j} className="px-4 py-2.5 align-top">
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
  const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');
  return (
    <>
      {table(
        'Credits',
        ['When', 'What', 'Credits', 'By'],
        detail.credit_events.map((e) => [utc(e.created_at), e.description, <span className="tabular-nums">{signed(e.credits)}</span>, e.admin ?? 'system']),
        'admin-order-credits',
      )}
      {detail.lot && (
        <p className={`mt-2 text-sm ${mutedClass}`}>
          {detail.lot.remaining.toLocaleString('en-US')} of {detail.lot.granted.toLocaleString('en-US')} credits of this order are unspent (valid until {utc(detail.lot.expires_at)}).
        </p>
      )}
      {table(
        'Refunds',
        ['When', 'Amount', 'Refunded in all', 'By'],
        detail.refunds.map((r) => [utc(r.created_at), formatUsd(r.amount_cents), formatUsd(r.refunded_cents), r.admin ?? '—']),
        'admin-order-refunds',
      )}
      {table(
        'Payment events',
        ['When', 'Event', 'Id'],
        detail.payment_events.map((e) => [utc(e.received_at), e.type, <code className="font-mono text-xs break-all">{e.id}</code>]),
        'admin-order-events',
      )}
    </>
  );
}
