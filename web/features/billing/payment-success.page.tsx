import { useEffect, useState } from 'react';
import type { OrderView } from 'src/contracts/billing';
import { AccountPage, Badge, buttonClass, cardClass, LoadFailed, secondaryButtonClass, notSignedInYet, useCredits, useSession } from 'web/components/account-ui';
import { Icon } from 'web/components/icons';
import { useAccountI18n } from 'web/i18n/account-messages';
import { ApiError, apiRequest } from 'web/lib/api';
import { keepPolling, ORDER_STATUS_KEYS, POLL_INTERVAL_MS, POLL_LIMIT_MS, wasPaid } from 'web/lib/billing-format';
import { creditsLabel, refreshCredits } from 'web/lib/credits';
import { Link, useLocation } from 'web/lib/router/router';
import { signedOut } from 'web/lib/session';
import { OrderFacts, orderParam, orderPath } from 'web/features/billing/order-facts';

/**
 * After paying: order number, amount paid, payment method, View Order and Back to Home. While the
 * order is pending (the webhook has not arrived yet) it asks the server every 2 s, for 2 minutes
 * at most; the server asks the gateway meanwhile.
 */
export default function PaymentSuccessPage() {
  const { t, tag } = useAccountI18n();
  const { search } = useLocation();
  const id = orderParam(search);
  const session = useSession();
  const credits = useCredits();
  const email = session.userInfo?.email;
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<{ key: string; order?: OrderView; error?: unknown; gaveUp?: boolean }>();
  // The balance shows once it was asked for after the payment (before that it is the old one).
  const [balanceFor, setBalanceFor] = useState<string | null>(null);
  const key = id && email ? `${email} ${id} ${attempt}` : null;

  useEffect(() => {
    if (!key || !id) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const startedAt = Date.now();
    const poll = async () => {
      try {
        const { data: order } = await apiRequest<OrderView>(t, 'GET', orderPath(id));
        if (!live) return;
        const again = keepPolling(order, startedAt, Date.now());
        setState({ key, order, gaveUp: order.status === 'pending' && !again });
        if (again) timer = setTimeout(poll, POLL_INTERVAL_MS);
        else if (wasPaid(order)) void refreshCredits().finally(() => live && setBalanceFor(key));
      } catch (error) {
        if (!live) return;
        if (error instanceof ApiError && error.status === 401) signedOut();
        // A passing failure (network, 5xx) while pending: keep asking within the time limit.
        const transient = !(error instanceof ApiError) || error.status >= 500;
        if (transient && Date.now() - startedAt < POLL_LIMIT_MS) timer = setTimeout(poll, POLL_INTERVAL_MS);
        else setState((previous) => ({ key, order: previous?.key === key ? previous.order : undefined, error }));
      }
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, id, t]);

  const title = t('success.seoTitle');
  if (!id) {
    return (
      <AccountPage title={title}>
        <p className={cardClass}>{t('checkout.noOrder')}</p>
      </AccountPage>
    );
  }
  const notYet = notSignedInYet({ session, title, signIn: t('checkout.signIn'), waiting: !!key && state?.key !== key });
  if (notYet) return notYet;
  const order = state?.order;
  if (!order) {
    const missing = state?.error instanceof ApiError && state.error.status === 404;
    return (
      <AccountPage title={title}>
        <LoadFailed message={missing ? t('checkout.notFound') : undefined} retry={() => setAttempt((n) => n + 1)} />
      </AccountPage>
    );
  }

  const buttons = (
    <div className="mt-6 flex flex-col gap-3 sm:flex-row">
      <Link to={`/billing?order=${encodeURIComponent(order.id)}`} className={buttonClass}>
        {t('success.viewOrder')}
      </Link>
      {wasPaid(order) && (
        <Link to={`/billing/receipts/${encodeURIComponent(order.id)}`} className={secondaryButtonClass}>
          {t('billing.receipt')}
        </Link>
      )}
      <Link to="/" className={secondaryButtonClass}>
        {t('success.backHome')}
      </Link>
    </div>
  );

  if (order.status === 'pending') {
    return (
      <AccountPage title={t('success.pendingTitle')}>
        <div className={cardClass}>
          <p role="status" className="flex items-center gap-3 font-medium">
            {!state?.gaveUp && <span aria-hidden="true" className="size-5 shrink-0 animate-spin rounded-full border-2 border-primary-600 border-t-transparent" />}
            {t(state?.gaveUp ? 'success.stillPending' : 'success.pendingText')}
          </p>
          <div className="mt-4">
            <OrderFacts order={order} />
          </div>
          {buttons}
        </div>
      </AccountPage>
    );
  }

  if (!wasPaid(order)) {
    return (
      <AccountPage title={t('success.notPaidTitle')}>
        <div className={cardClass}>
          <p>{t('success.notPaidText', { status: t(ORDER_STATUS_KEYS[order.status]).toLowerCase() })}</p>
          <div className="mt-4">
            <OrderFacts order={order} />
          </div>
          <div className="mt-6 flex flex-col gap-3 sm:flex-row">
            <Link to="/pricing" className={buttonClass}>
              {t('success.pricing')}
            </Link>
            <Link to="/" className={secondaryButtonClass}>
              {t('success.backHome')}
            </Link>
          </div>
        </div>
      </AccountPage>
    );
  }

  return (
    <AccountPage title={t('success.title')}>
      <div className={cardClass}>
        <div className="flex items-start gap-4">
          <span className="flex size-12 shrink-0 items-center justify-center rounded-full bg-primary-100 text-primary-700 dark:bg-primary-900 dark:text-primary-300">
            <Icon name="check" className="size-6" />
          </span>
          <div>
            <p role="status" className="text-lg font-semibold">
              {t(order.kind === 'donation' ? 'success.thanksDonation' : 'success.thanks')}
            </p>
            {order.test && (
              <p className="mt-1 text-sm text-amber-700 dark:text-amber-300">
                <Badge tone="amber">{t('order.test')}</Badge> {t('order.testNote')}
              </p>
            )}
          </div>
        </div>
        <div className="mt-4">
          <OrderFacts order={order} paid />
        </div>
        {credits.view && balanceFor === key && (
          <p className="mt-2 rounded-2xl bg-primary-50 px-4 py-3 font-semibold text-primary-900 dark:bg-primary-950/60 dark:text-primary-100" data-testid="success-balance">
            {t('success.balance')}: {creditsLabel(t, credits.view.balance, tag)}
          </p>
        )}
        {buttons}
      </div>
    </AccountPage>
  );
}
