import type { ReactNode } from 'react';
import { type OrderStatus, type OrderView } from 'src/contracts/billing';
import { formatUsd } from 'web/lib/money';
import { Badge, mutedClass } from 'web/components/account-ui';
import { useAccountI18n } from 'web/i18n/account-messages';
import { ORDER_STATUS_KEYS, orderStatusTone } from 'web/lib/billing-format';
import { creditsLabel } from 'web/lib/credits';

export function StatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useAccountI18n();
  return <Badge tone={orderStatusTone(status)}>{t(ORDER_STATUS_KEYS[status])}</Badge>;
}

export const orderPath = (id: string) => `/api/v1/orders/${encodeURIComponent(id)}`;

export const orderParam = (search: string) => new URLSearchParams(search).get('order')?.slice(0, 100) || null;

/** Order number, amount, method and credits of one order, as a definition list. */
export function OrderFacts({ order, paid }: { order: OrderView; paid?: boolean }) {
  const { t, tag } = useAccountI18n();
  const rows: [string, ReactNode][] = [
    [t('order.number'), <span className="font-mono" data-testid="order-number">{order.number}</span>],
    [t('checkout.item'), order.description],
    [t(paid ? 'order.amountPaid' : 'order.amount'), formatUsd(order.amount_cents)],
    ...(paid && order.payment_method ? [[t('order.paymentMethod'), order.payment_method] as [string, ReactNode]] : []),
    [t('order.credits'), creditsLabel(t, order.credits, tag)],
  ];
  return (
    <dl className="divide-y divide-gray-200 dark:divide-gray-800">
      {rows.map(([label, value]) => (
        <div key={label} className="flex justify-between gap-4 py-3">
          <dt className={mutedClass}>{label}</dt>
          <dd className="text-right font-semibold">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
