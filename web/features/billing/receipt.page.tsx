import type { ReactNode } from 'react';
import type { ReceiptView } from 'src/contracts/billing';
import { Account, AccountPage, Badge, cardClass, linkClass, mutedClass, secondaryButtonClass, useAccountData } from 'web/components/account-ui';
import { useAccountI18n } from 'web/i18n/account-messages';
import { formatDateTime } from 'web/lib/billing-format';
import { formatUsd } from 'web/lib/money';
import { Link, usePage } from 'web/lib/router/router';
import { StatusBadge } from 'web/features/billing/order-facts';

/** One fact of the receipt: a term and its value. */
function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-1.5 print:py-0.5">
      <dt className={mutedClass}>{term}</dt>
      <dd className="text-right font-medium">{children}</dd>
    </div>
  );
}

function Receipt({ receipt }: { receipt: ReceiptView }) {
  const { t, tag } = useAccountI18n();
  const { order } = receipt;
  const refunded = receipt.refunds.reduce((sum, refund) => sum + refund.amount_cents, 0);
  return (
    <article className={`${cardClass} print:border-0 print:bg-white print:p-0 print:text-gray-900 print:shadow-none`} data-testid="receipt">
      {order.test && (
        <p role="note" className="mb-4 rounded-2xl bg-amber-50 px-4 py-2 font-semibold text-amber-900 dark:bg-amber-950/60 dark:text-amber-200 print:border print:border-amber-600">
          {t('receipt.testMode')}
        </p>
      )}
      <div className="grid gap-6 sm:grid-cols-2">
        <section aria-labelledby="receipt-seller">
          <h2 id="receipt-seller" className={`text-xs font-semibold tracking-wide uppercase ${mutedClass}`}>
            {t('receipt.seller')}
          </h2>
          <p className="mt-1 font-semibold">{receipt.seller.name}</p>
          {receipt.seller.address.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </section>
        <section aria-labelledby="receipt-buyer">
          <h2 id="receipt-buyer" className={`text-xs font-semibold tracking-wide uppercase ${mutedClass}`}>
            {t('receipt.buyer')}
          </h2>
          <p className="mt-1 font-semibold break-all">{receipt.buyer_email ?? t('receipt.deletedBuyer')}</p>
        </section>
      </div>
      <dl className="mt-6 divide-y divide-gray-200 text-sm dark:divide-gray-800">
        <Fact term={t('receipt.order')}>
          <span className="font-mono">{order.number}</span>
        </Fact>
        <Fact term={t('receipt.date')}>
          <time dateTime={order.created_at}>{formatDateTime(order.created_at, tag)}</time>
        </Fact>
        {order.paid_at && (
          <Fact term={t('receipt.paidAt')}>
            <time dateTime={order.paid_at}>{formatDateTime(order.paid_at, tag)}</time>
          </Fact>
        )}
        <Fact term={t('receipt.method')}>{order.payment_method ?? '—'}</Fact>
        <Fact term={t('receipt.currency')}>{order.currency.toUpperCase()}</Fact>
        <Fact term={t('billing.status')}>
          <StatusBadge status={order.status} />
        </Fact>
      </dl>
      <table className="mt-6 w-full text-left text-sm">
        <thead className={`text-xs uppercase ${mutedClass}`}>
          <tr>
            <th scope="col" className="py-2">{t('receipt.item')}</th>
            <th scope="col" className="py-2 pl-4 text-right">{t('receipt.quantity')}</th>
            <th scope="col" className="py-2 pl-4 text-right">{t('receipt.amount')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-200 border-y border-gray-200 dark:divide-gray-800 dark:border-gray-800">
          {receipt.items.map((item) => (
            <tr key={item.description}>
              <td className="py-2">{item.description}</td>
              <td className="py-2 pl-4 text-right tabular-nums">{item.quantity}</td>
              <td className="py-2 pl-4 text-right tabular-nums">{formatUsd(item.amount_cents)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={2} className="py-2 text-right">{t('receipt.total')}</th>
            <td className="py-2 text-right font-bold tabular-nums">{formatUsd(order.amount_cents)}</td>
          </tr>
          {receipt.refunds.map((refund) => (
            <tr key={`${refund.created_at}-${refund.amount_cents}`} data-testid="receipt-refund">
              <th scope="row" colSpan={2} className="py-1 text-right font-normal">
                {t('receipt.refunds')}: <time dateTime={refund.created_at}>{formatDateTime(refund.created_at, tag)}</time>, {t(`receipt.refundBy.${refund.by}`)}
              </th>
              <td className="py-1 pl-4 text-right whitespace-nowrap tabular-nums">−{formatUsd(refund.amount_cents)}</td>
            </tr>
          ))}
          {refunded > 0 && (
            <tr>
              <th scope="row" colSpan={2} className="py-2 text-right">{t('receipt.netPaid')}</th>
              <td className="py-2 text-right font-bold tabular-nums">{formatUsd(order.amount_cents - refunded)}</td>
            </tr>
          )}
        </tfoot>
      </table>
      <div className="mt-6 flex flex-wrap items-center gap-3 print:hidden">
        <button type="button" onClick={() => window.print()} className={secondaryButtonClass}>
          {t('receipt.print')}
        </button>
        {receipt.invoice_url && (
          <a href={receipt.invoice_url} className={linkClass} rel="noopener noreferrer" target="_blank">
            {t('receipt.invoice')}
          </a>
        )}
        <Link to={`/billing?order=${encodeURIComponent(order.id)}`} className={linkClass}>
          {t('receipt.back')}
        </Link>
        {order.test && <Badge tone="amber">{t('order.test')}</Badge>}
      </div>
    </article>
  );
}

/** /billing/receipts/{order}: a paid order's receipt, printable (the print CSS drops the page's frame). */
export default function ReceiptPage() {
  const { t } = useAccountI18n();
  const order = usePage().params.order;
  const [remote, retry] = useAccountData<ReceiptView>(`/api/v1/orders/${encodeURIComponent(order ?? '')}/receipt`);
  return (
    <AccountPage title={t('receipt.title')} testNote={false}>
      <Account remote={remote} retry={retry} signIn={t('receipt.signIn')} notFound={t('receipt.notFound')} ready={(receipt) => <Receipt receipt={receipt} />} />
    </AccountPage>
  );
}
