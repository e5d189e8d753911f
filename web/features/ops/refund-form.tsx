import { useId, useRef, useState, type FormEvent } from 'react';
import { creditsForRefundedCents, type AdminOrderDetail } from 'src/contracts/billing';
import { formatUsd } from 'web/lib/money';
import { buttonClass, cardClass, mutedClass, secondaryButtonClass } from 'web/components/account-ui';
import { usePageI18n } from 'web/i18n/page-messages';
import { ApiError, apiRequest } from 'web/lib/api';
import { notify } from 'web/lib/toasts';
import { inputClass, newKey } from 'web/features/ops/admin-orders-common';
import { modalClass } from 'web/components/modal-class';

/** Refund all that is left or part of it, after a confirmation that says what will be taken back. */
export function RefundForm({ detail, onDone }: { detail: AdminOrderDetail; onDone: () => void }) {
  const { t } = usePageI18n();
  const { order } = detail;
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const [dollars, setDollars] = useState((detail.refundable_cents / 100).toFixed(2));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // One key per confirmation: a retry of the same request refunds once.
  const [key, setKey] = useState('');
  if (detail.refundable_cents <= 0) {
    return (
      <section aria-labelledby={`${id}-title`} className={cardClass}>
        <h2 id={`${id}-title`} className="text-lg font-bold">
          Refund
        </h2>
        <p className={`mt-2 text-sm ${mutedClass}`}>Nothing to refund: only a paid order that is not fully refunded (nor disputed) can be refunded.</p>
      </section>
    );
  }
  const cents = Math.round(Number(dollars) * 100);
  const valid = /^\d+(\.\d{1,2})?$/.test(dollars.trim()) && cents >= 1 && cents <= detail.refundable_cents;
  // The refunded share of the credits (rounded up), less what was taken back already, and only what is unspent.
  const owed = valid ? Math.max(0, creditsForRefundedCents({ credits: order.credits, amountCents: order.amount_cents }, order.refunded_cents + cents) - order.credits_to_take_back) : 0;
  const taken = Math.min(owed, detail.lot?.remaining ?? 0);
  const confirm = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return setProblem(`Enter an amount from $0.01 to ${formatUsd(detail.refundable_cents)}.`);
    setProblem(null);
    setKey(newKey());
    dialog.current?.showModal();
  };
  const refund = async () => {
    setBusy(true);
    try {
      const body = cents === detail.refundable_cents ? {} : { amount_cents: cents };
      await apiRequest(t, 'POST', `/api/v1/admin/orders/${encodeURIComponent(order.id)}/refund`, body, { headers: { 'idempotency-key': key } });
      dialog.current?.close();
      notify(`Refunded ${formatUsd(cents)} of ${order.number}`, 'success');
      onDone();
    } catch (error) {
      if (error instanceof ApiError) setProblem(error.message);
      dialog.current?.close();
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby={`${id}-title`} className={cardClass}>
      <h2 id={`${id}-title`} className="text-lg font-bold">
        Refund
      </h2>
      <form noValidate onSubmit={confirm} className="mt-3">
        <label htmlFor={`${id}-amount`} className="block text-sm font-medium">
          Amount in US dollars (up to {formatUsd(detail.refundable_cents)})
        </label>
        <div className="mt-1 flex gap-3">
          <input
            id={`${id}-amount`}
            inputMode="decimal"
            autoComplete="off"
            value={dollars}
            onChange={(event) => setDollars(event.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
            className={inputClass.replace('mt-1 ', '')}
          />
          <button ref={opener} type="submit" className={`${secondaryButtonClass} shrink-0`}>
            Refund…
          </button>
        </div>
        {problem && (
          <p id={`${id}-problem`} role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
            {problem}
          </p>
        )}
      </form>
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-confirm`}
        onClose={() => opener.current?.focus()}
        className={`${modalClass} w-[min(28rem,calc(100%-2rem))]`}
      >
        <h2 id={`${id}-confirm`} className="text-xl font-bold">
          Refund {formatUsd(cents)} of {order.number}?
        </h2>
        <ul className="mt-3 list-disc space-y-1 pl-5 text-sm" data-testid="refund-consequences">
          <li>
            {formatUsd(cents)} goes back to {order.email ?? 'the buyer'}
            {order.test ? ' (a test order: no real money moves)' : ' through the payment provider'}.
          </li>
          <li>
            {taken.toLocaleString('en-US')} credit{taken === 1 ? '' : 's'} will be taken back from {order.email ?? 'the account'}
            {taken < owed ? ` (${owed.toLocaleString('en-US')} are owed, but only ${taken.toLocaleString('en-US')} are still unspent)` : ''}.
          </li>
          <li>The order will be {order.refunded_cents + cents >= order.amount_cents ? 'refunded in full' : 'partially refunded'}. This cannot be undone.</li>
        </ul>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row-reverse">
          <button type="button" disabled={busy} onClick={() => void refund()} className={`${buttonClass} sm:flex-1`}>
            Refund {formatUsd(cents)}
          </button>
          <button type="button" onClick={() => dialog.current?.close()} className={`${secondaryButtonClass} sm:flex-1`}>
            Cancel
          </button>
        </div>
      </dialog>
    </section>
  );
}
