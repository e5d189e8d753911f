import { useEffect, useRef, useState } from 'react';
import { formatInteger } from 'src/contracts/number-format';
import { type CheckoutView, type OrderView } from 'src/contracts/billing';
import { formatUsd } from 'web/lib/money';
import { Badge, mutedClass } from 'web/components/account-ui';
import { useAccountI18n } from 'web/i18n/account-messages';
import { ApiError, apiRequest } from 'web/lib/api';
import { formatDateTime, orderNotes, wasPaid } from 'web/lib/billing-format';
import { notify } from 'web/lib/toasts';
import { StatusBadge, orderPath } from 'web/features/billing/order-facts';
import { PaidActions } from 'web/features/billing/paid-actions';

/** Table cells that become "label: value" lines of a card on phones. */
const cell = 'px-4 py-3 max-sm:flex max-sm:justify-between max-sm:gap-4 max-sm:px-0 max-sm:py-1 max-sm:text-right max-sm:before:text-left max-sm:before:font-normal max-sm:before:text-gray-500 max-sm:before:content-[attr(data-label)] dark:max-sm:before:text-gray-400';

/** A pending order's way on: back to its checkout, or cancel it. */
function PendingActions({ order, onChanged }: { order: OrderView; onChanged: () => void }) {
  const { t } = useAccountI18n();
  const [busy, setBusy] = useState(false);
  const act = async (action: 'resume' | 'cancel') => {
    setBusy(true);
    try {
      if (action === 'resume') {
        const { data } = await apiRequest<CheckoutView>(t, 'POST', `${orderPath(order.id)}/resume`);
        window.location.assign(data.url);
        return;
      }
      await apiRequest<OrderView>(t, 'POST', `${orderPath(order.id)}/cancel`);
      notify(t('billing.canceled', { number: order.number }), 'success');
      onChanged();
    } catch (error) {
      if (error instanceof ApiError) notify(error.message, 'error');
      onChanged();
    }
    setBusy(false);
  };
  const small = 'rounded-full px-3 py-1 text-xs font-semibold disabled:opacity-60';
  return (
    <span className="mt-1 flex gap-2">
      <button type="button" disabled={busy} onClick={() => void act('resume')} aria-label={t('billing.resumeLabel', { number: order.number })} className={`${small} bg-primary-700 text-white hover:bg-primary-800 dark:bg-primary-500 dark:text-gray-950`}>
        {t('billing.resume')}
      </button>
      <button type="button" disabled={busy} onClick={() => void act('cancel')} aria-label={t('billing.cancelLabel', { number: order.number })} className={`${small} border border-gray-300 hover:bg-gray-50 dark:border-gray-700 dark:hover:bg-gray-800`}>
        {t('billing.cancel')}
      </button>
    </span>
  );
}

export function OrdersTable({ orders, highlight, onChanged }: { orders: OrderView[]; highlight: string | null; onChanged: () => void }) {
  const { t, tag } = useAccountI18n();
  const highlighted = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    highlighted.current?.scrollIntoView({ block: 'center' });
  }, [highlight]);
  const headers = [t('billing.orderId'), t('billing.amount'), t('billing.refunded'), t('billing.status'), t('billing.credits'), t('billing.createdAt')];
  return (
    <div className="overflow-x-auto sm:rounded-3xl sm:border sm:border-gray-200 sm:bg-white sm:shadow-sm dark:sm:border-gray-800 dark:sm:bg-gray-900/60">
      <table className="w-full text-left text-sm max-sm:block">
        <thead className="bg-gray-50 text-xs tracking-wide text-gray-500 uppercase max-sm:sr-only dark:bg-gray-900 dark:text-gray-400">
          <tr>
            {headers.map((header, i) => (
              <th key={header} scope="col" className={`px-4 py-3 font-semibold whitespace-nowrap ${i > 0 && i < 3 ? 'text-right' : ''} ${i === 4 ? 'text-right' : ''}`}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-200 max-sm:block max-sm:space-y-3 max-sm:divide-y-0 dark:divide-gray-800">
          {orders.map((order) => {
            const current = order.id === highlight;
            return (
              <tr
                key={order.id}
                id={`order-${order.id}`}
                ref={current ? highlighted : undefined}
                aria-current={current ? 'true' : undefined}
                data-order={order.id}
                className="aria-[current=true]:bg-amber-50 max-sm:block max-sm:rounded-2xl max-sm:border max-sm:border-gray-200 max-sm:bg-white max-sm:p-4 max-sm:shadow-sm dark:aria-[current=true]:bg-amber-950/40 dark:max-sm:border-gray-800 dark:max-sm:bg-gray-900/60 max-sm:aria-[current=true]:border-amber-400 max-sm:aria-[current=true]:bg-amber-50 dark:max-sm:aria-[current=true]:bg-amber-950/40"
              >
                <td data-label={headers[0]} className={cell}>
                  <span className="flex flex-col items-end gap-0.5 sm:items-start">
                    <span className="flex items-center gap-2 font-mono font-semibold whitespace-nowrap">
                      {order.number}
                      {order.test && <Badge tone="amber">{t('order.test')}</Badge>}
                    </span>
                    <span className={`text-xs ${mutedClass}`}>{order.description}</span>
                  </span>
                </td>
                <td data-label={headers[1]} className={`${cell} text-right font-semibold tabular-nums`}>
                  {formatUsd(order.amount_cents)}
                </td>
                <td data-label={headers[2]} className={`${cell} text-right tabular-nums ${order.refunded_cents ? '' : 'text-gray-500 dark:text-gray-400'}`}>
                  {formatUsd(order.refunded_cents)}
                </td>
                <td data-label={headers[3]} className={cell}>
                  <span className="flex flex-col items-end gap-1 sm:items-start">
                    <StatusBadge status={order.status} />
                    {orderNotes(order, formatUsd).map((note) => (
                      <span key={note.key} className={`text-xs ${mutedClass}`} data-testid="order-note">
                        {t(note.key, note.values)}
                      </span>
                    ))}
                    {order.status === 'pending' && <PendingActions order={order} onChanged={onChanged} />}
                    {wasPaid(order) && <PaidActions order={order} onChanged={onChanged} />}
                  </span>
                </td>
                <td data-label={headers[4]} className={`${cell} text-right tabular-nums`}>
                  {formatInteger(order.credits, tag)}
                </td>
                <td data-label={headers[5]} className={`${cell} whitespace-nowrap ${mutedClass}`}>
                  <time dateTime={order.created_at}>{formatDateTime(order.created_at, tag)}</time>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
