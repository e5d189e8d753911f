import type { ReactNode } from 'react';
import { type AdminOrderDetail } from 'src/contracts/billing';
import { formatUsd } from 'web/lib/money';
import { mutedClass } from 'web/components/account-ui';
import { stackedBody, stackedCell, stackedFrame, stackedHead, stackedRow, stackedTable } from 'web/components/stacked-table';
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
        <div className={stackedFrame}>
          <table className={stackedTable} data-testid={testId}>
            <thead className={stackedHead}>
              <tr>
                {head.map((h) => (
                  <th key={h} scope="col" className="px-4 py-2.5 font-semibold whitespace-nowrap">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className={stackedBody}>
              {rows.map((cells, i) => (
                <tr key={i} className={stackedRow}>
                  {cells.map((cell, j) => (
                    <td key={j} data-label={head[j]} className={stackedCell}>
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
