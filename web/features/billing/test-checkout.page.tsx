import { useState } from 'react';
import { type OrderView } from 'src/contracts/billing';
import { formatUsd } from 'web/lib/money';
import { Account, AccountPage, buttonClass, cardClass, linkClass, secondaryButtonClass, useAccountData } from 'web/components/account-ui';
import { Icon } from 'web/components/icons';
import { useAccountI18n } from 'web/i18n/account-messages';
import { ApiError, apiRequest } from 'web/lib/api';
import { ORDER_STATUS_KEYS } from 'web/lib/billing-format';
import { Link, useLocation, useNavigate } from 'web/lib/router/router';
import { notify } from 'web/lib/toasts';
import { OrderFacts, orderParam, orderPath } from 'web/features/billing/order-facts';

/** The local stand-in for Stripe's page: clearly a test, Pay or Cancel run the real fulfilment. */
export default function TestCheckoutPage() {
  const { t } = useAccountI18n();
  const navigate = useNavigate();
  const { search } = useLocation();
  const id = orderParam(search);
  const [remote, retry] = useAccountData<OrderView>(id && orderPath(id));
  const [busy, setBusy] = useState(false);

  const finish = async (order: OrderView, result: 'paid' | 'canceled') => {
    setBusy(true);
    try {
      await apiRequest<OrderView>(t, 'POST', `${orderPath(order.id)}/test_payment`, { result });
      void navigate(result === 'paid' ? `/payment/success?order=${encodeURIComponent(order.id)}` : '/pricing');
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError) notify(error.message, 'error');
    }
  };

  return (
    <AccountPage title={t('checkout.title')} testNote={false}>
      <div role="note" className="mb-6 rounded-2xl border-2 border-dashed border-amber-400 bg-amber-50 p-4 text-amber-950 dark:border-amber-500 dark:bg-amber-950/40 dark:text-amber-100">
        <p className="flex items-center gap-2 font-bold">
          <Icon name="shield" className="size-5 shrink-0" />
          {t('checkout.banner')}
        </p>
        <p className="mt-1 text-sm">{t('checkout.bannerText')}</p>
      </div>
      {!id ? (
        <p className={cardClass}>{t('checkout.noOrder')}</p>
      ) : (
        <Account
          remote={remote}
          retry={retry}
          signIn={t('checkout.signIn')}
          notFound={t('checkout.notFound')}
          ready={(order) => (
            <div className={cardClass}>
              <OrderFacts order={order} />
              {order.status === 'pending' ? (
                <div className="mt-6 flex flex-col gap-3 sm:flex-row-reverse">
                  <button type="button" disabled={busy} onClick={() => void finish(order, 'paid')} className={`${buttonClass} sm:flex-1`}>
                    {t('checkout.pay', { amount: formatUsd(order.amount_cents) })}
                  </button>
                  <button type="button" disabled={busy} onClick={() => void finish(order, 'canceled')} className={`${secondaryButtonClass} sm:flex-1`}>
                    {t('checkout.cancel')}
                  </button>
                </div>
              ) : (
                <p className="mt-6">
                  {t('checkout.done', { status: t(ORDER_STATUS_KEYS[order.status]).toLowerCase() })}{' '}
                  <Link to={`/billing?order=${encodeURIComponent(order.id)}`} className={linkClass}>
                    {t('success.viewOrder')}
                  </Link>
                </p>
              )}
            </div>
          )}
        />
      )}
    </AccountPage>
  );
}
