import { useState } from 'react';
import type { OrderView } from 'src/contracts/billing';
import { linkClass, mutedClass } from 'web/components/account-ui';
import { useAccountI18n } from 'web/i18n/account-messages';
import { ApiError, apiRequest } from 'web/lib/api';
import { refreshCredits } from 'web/lib/credits';
import { formatUsd } from 'web/lib/money';
import { Link } from 'web/lib/router/router';
import { notify } from 'web/lib/toasts';
import { orderPath } from 'web/features/billing/order-facts';

/** A paid order's way on: its receipt, and Refund when the refund rule allows it (else why not, for a pack). */
export function PaidActions({ order, onChanged }: { order: OrderView; onChanged: () => void }) {
  const { t } = useAccountI18n();
  const [busy, setBusy] = useState(false);
  const refund = async () => {
    if (!window.confirm(t('billing.refundConfirm', { number: order.number, amount: formatUsd(order.amount_cents) }))) return;
    setBusy(true);
    try {
      await apiRequest<OrderView>(t, 'POST', `${orderPath(order.id)}/refund`);
      notify(t('billing.refundDone', { number: order.number }), 'success');
      void refreshCredits();
    } catch (error) {
      if (error instanceof ApiError) notify(error.message, 'error');
    }
    setBusy(false);
    onChanged();
  };
  const refusal = order.kind === 'pack' && order.status === 'paid' && order.self_refund && !order.self_refund.allowed ? order.self_refund.reason : null;
  return (
    <span className="mt-1 flex flex-wrap items-center justify-end gap-2 sm:justify-start">
      <Link to={`/billing/receipts/${encodeURIComponent(order.id)}`} aria-label={t('billing.receiptLabel', { number: order.number })} className={`text-xs ${linkClass}`}>
        {t('billing.receipt')}
      </Link>
      {order.self_refund?.allowed && (
        <button
          type="button"
          disabled={busy}
          onClick={() => void refund()}
          aria-label={t('billing.refundLabel', { number: order.number })}
          className="rounded-full border border-red-300 px-3 py-1 text-xs font-semibold text-red-800 hover:bg-red-50 disabled:opacity-60 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950"
        >
          {t('billing.refund')}
        </button>
      )}
      {refusal && <span className={`text-xs ${mutedClass}`}>{t('billing.noRefund', { reason: refusal })}</span>}
    </span>
  );
}
