import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import {
  formatUsd,
  INSUFFICIENT_CREDITS,
  type CheckoutInput,
  type CheckoutView,
  type CreditsView,
  type LedgerEventView,
  type OrderStatus,
  type OrderView,
  type Paged,
  type PricingData,
} from 'src/contracts/billing';
import { dateFormat } from 'src/contracts/date-format';
import {
  Account,
  AccountPage,
  Badge,
  buttonClass,
  cardClass,
  linkClass,
  LoadFailed,
  Loading,
  mutedClass,
  Pager,
  secondaryButtonClass,
  SignInPrompt,
  useAccountData,
  useCredits,
  useSession,
} from 'web/components/account-ui';
import { Icon } from 'web/components/icons';
import { Seo } from 'web/components/seo';
import { TestModeNote } from 'web/components/test-mode-note';
import { usePageI18n } from 'web/i18n/page-messages';
import { ApiError, apiRequest } from 'web/lib/api';
import {
  checkDonation,
  formatDateTime,
  keepPolling,
  LEDGER_KIND_KEYS,
  LOT_SOURCE_KEYS,
  ORDER_STATUS_KEYS,
  orderNotes,
  orderStatusTone,
  pageParam,
  POLL_INTERVAL_MS,
  POLL_LIMIT_MS,
  signedNumber,
  usageChart,
  wasPaid,
} from 'web/lib/billing-format';
import { creditsLabel, refreshCredits } from 'web/lib/credits';
import { openLoginModal } from 'web/lib/login-modal';
import { Link, useLocation, useNavigate, usePageData } from 'web/lib/router/router';
import { sessionLoaded, sessionStore, signedOut } from 'web/lib/session';
import { notify } from 'web/lib/toasts';

/*
 * The pages of credits and payments: /pricing, /payment/test-checkout, /payment/success, /billing
 * and /usage. Their HTML is the same for everyone (pages are cached): only /pricing has loader data
 * (the packs); what belongs to the signed-in user loads here, in the browser.
 */

function StatusBadge({ status }: { status: OrderStatus }) {
  const { t } = usePageI18n();
  return <Badge tone={orderStatusTone(status)}>{t(ORDER_STATUS_KEYS[status])}</Badge>;
}

const orderPath = (id: string) => `/api/v1/orders/${encodeURIComponent(id)}`;
const orderParam = (search: string) => new URLSearchParams(search).get('order')?.slice(0, 100) || null;

/** Order number, amount, method and credits of one order, as a definition list. */
function OrderFacts({ order, paid }: { order: OrderView; paid?: boolean }) {
  const { t, tag } = usePageI18n();
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

// ---------------------------------------------------------------------------------------------
// /pricing

/**
 * /pricing: the packs as cards, the free trial, and the donation form. Buying while signed out
 * opens the login modal first, then goes on with the purchase; checkout sends the browser to the
 * payment page (Stripe's, or the local test checkout).
 */
export function PricingPage() {
  const pricing = usePageData<PricingData>();
  const { t, tag } = usePageI18n();
  const session = useSession();
  const [busy, setBusy] = useState<string | null>(null);

  // Back from the payment page through the history cache: the buttons work again.
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => event.persisted && setBusy(null);
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  const checkout = async (input: CheckoutInput, key: string) => {
    setBusy(key);
    try {
      const { data } = await apiRequest<CheckoutView>(t, 'POST', '/api/v1/checkout', input);
      window.location.assign(data.url);
    } catch (error) {
      setBusy(null);
      if (!(error instanceof ApiError)) return;
      if (error.status === 401) {
        signedOut();
        openLoginModal({ onSignedIn: () => void checkout(input, key) });
      } else if (error.code !== INSUFFICIENT_CREDITS) notify(error.message, 'error');
    }
  };
  // A click before the session is known waits for it (asking the API first would answer 401).
  const buy = async (input: CheckoutInput, key: string) => {
    if (!session.loaded) {
      setBusy(key);
      await sessionLoaded();
      setBusy(null);
    }
    if (!sessionStore.get().userInfo) openLoginModal({ onSignedIn: () => void checkout(input, key) });
    else void checkout(input, key);
  };

  const { trial, donation } = pricing;
  return (
    <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo
        title={t('pricing.seoTitle')}
        description={t('pricing.seoDescription', { days: trial.days, perDollar: donation.credits_per_dollar })}
      />
      <div className="max-w-2xl">
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{t('pricing.title')}</h1>
        <p className={`mt-3 text-lg ${mutedClass}`}>{t('pricing.intro')}</p>
        <TestModeNote className="mt-4" />
      </div>

      <section
        aria-labelledby="trial"
        className="mt-8 flex flex-col gap-4 rounded-3xl bg-primary-50 p-6 sm:flex-row sm:items-center sm:justify-between dark:bg-primary-950/50"
      >
        <div>
          <h2 id="trial" className="text-lg font-bold text-primary-900 dark:text-primary-100">
            {t('pricing.trialTitle', { days: trial.days })}
          </h2>
          <p className="mt-1 text-primary-900/80 dark:text-primary-100/80">
            {t('pricing.trialText', { credits: creditsLabel(t, trial.credits, tag), days: trial.days })}
          </p>
        </div>
        {session.loaded && !session.userInfo && (
          <Link to="/auth/signup" className={`${buttonClass} shrink-0`}>
            {t('pricing.trialCta')}
          </Link>
        )}
      </section>

      <section aria-labelledby="packs" className="mt-10">
        <h2 id="packs" className="text-xl font-bold">
          {t('pricing.packs')}
        </h2>
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {pricing.packs.map((pack) => {
            const credits = creditsLabel(t, pack.credits, tag);
            const price = formatUsd(pack.price_cents);
            return (
              <li
                key={pack.id}
                data-pack={pack.id}
                className={`relative flex flex-col rounded-3xl border bg-white p-6 shadow-sm dark:bg-gray-900/60 ${
                  pack.most_popular ? 'border-primary-500 ring-2 ring-primary-500 dark:border-primary-400 dark:ring-primary-400' : 'border-gray-200 dark:border-gray-800'
                }`}
              >
                {pack.most_popular && (
                  <p className="absolute -top-3 left-6 rounded-full bg-primary-700 px-3 py-0.5 text-xs font-bold tracking-wide text-white uppercase dark:bg-primary-500 dark:text-gray-950">
                    {t('pricing.mostPopular')}
                  </p>
                )}
                <h3 className="text-lg font-bold">{pack.name}</h3>
                <p className="mt-3 text-3xl font-extrabold tracking-tight">{credits}</p>
                <p className="mt-1 flex items-baseline gap-2">
                  <span className="text-2xl font-bold text-primary-700 dark:text-primary-400">{price}</span>
                  <span className={`text-sm ${mutedClass}`}>USD</span>
                </p>
                <p className={`mt-1 text-sm ${mutedClass}`}>
                  {pack.validity_days === 365
                    ? t('pricing.validityYear')
                    : pack.validity_days % 365 === 0
                      ? t('pricing.validityYears', { years: pack.validity_days / 365 })
                      : t('pricing.validity', { days: pack.validity_days })}
                </p>
                <ul className="mt-5 flex-1 space-y-2 text-sm">
                  {pack.features.map((feature) => (
                    <li key={feature} className="flex gap-2">
                      <Icon name="check" className="mt-0.5 size-4 shrink-0 text-primary-600 dark:text-primary-400" />
                      {feature}
                    </li>
                  ))}
                </ul>
                <button
                  type="button"
                  disabled={busy !== null}
                  aria-label={t('pricing.buyPack', { name: pack.name, credits, price })}
                  onClick={() => void buy({ pack_id: pack.id }, pack.id)}
                  className={`${pack.most_popular ? buttonClass : secondaryButtonClass} mt-6 w-full`}
                >
                  {t('pricing.buy')}
                </button>
              </li>
            );
          })}
        </ul>
      </section>

      <DonationForm donation={donation} busy={busy !== null} onDonate={(usd) => void buy({ donation_usd: usd }, 'donation')} />

      <p className={`mt-8 text-sm ${mutedClass}`}>
        {t('pricing.footnote')}{' '}
        <Link to="/refund-policy" className={linkClass}>
          {t('pricing.refundPolicy')}
        </Link>
      </p>
    </main>
  );
}

const DONATION_PRESETS = [2, 5, 10, 25];

function DonationForm({ donation, busy, onDonate }: { donation: PricingData['donation']; busy: boolean; onDonate: (usd: number) => void }) {
  const { t, tag } = usePageI18n();
  const [value, setValue] = useState('5');
  const [showProblem, setShowProblem] = useState(false);
  const checked = checkDonation(value, donation);
  const problem = 'problem' in checked ? t(checked.problem, { min: donation.min_usd, max: donation.max_usd }) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if ('usd' in checked) onDonate(checked.usd);
    else setShowProblem(true);
  };
  return (
    <section id="donate" aria-labelledby="donate-title" className={`${cardClass} mt-10 scroll-mt-24 lg:grid lg:grid-cols-2 lg:gap-10`}>
      <div>
        <h2 id="donate-title" className="text-xl font-bold">
          {t('pricing.donateTitle')}
        </h2>
        <p className={`mt-1 ${mutedClass}`}>{t('pricing.donateIntro')}</p>
        <p className="mt-3 inline-flex rounded-full bg-primary-50 px-3 py-1 text-sm font-semibold text-primary-800 dark:bg-primary-950 dark:text-primary-300">
          {t('pricing.donateRate', { credits: creditsLabel(t, donation.credits_per_dollar, tag) })}
        </p>
      </div>
      <form noValidate onSubmit={submit} className="mt-5 lg:mt-0">
        <label htmlFor="donation-usd" className="block text-sm font-medium">
          {t('pricing.donateLabel')}
        </label>
        <div className="mt-1 flex flex-wrap items-center gap-3">
          <div className="flex items-center rounded-xl border border-gray-300 bg-white px-3.5 shadow-sm focus-within:border-primary-500 focus-within:ring-2 focus-within:ring-primary-500/30 has-aria-invalid:border-red-500 dark:border-gray-700 dark:bg-gray-900">
            <span className={mutedClass}>$</span>
            <input
              id="donation-usd"
              name="donation_usd"
              inputMode="numeric"
              autoComplete="off"
              maxLength={7}
              value={value}
              onChange={(event) => {
                setValue(event.target.value);
                setShowProblem(false);
              }}
              aria-invalid={showProblem && problem ? true : undefined}
              aria-describedby={`donation-help${showProblem && problem ? ' donation-error' : ''}`}
              className="w-24 bg-transparent py-2.5 pl-1 text-base outline-none"
            />
          </div>
          <output htmlFor="donation-usd" aria-live="polite" className="text-lg font-semibold text-primary-700 dark:text-primary-400" data-testid="donation-credits">
            {'usd' in checked ? t('pricing.donateEquals', { credits: creditsLabel(t, checked.usd * donation.credits_per_dollar, tag) }) : ''}
          </output>
        </div>
        <div className="mt-3 flex flex-wrap gap-2">
          {DONATION_PRESETS.filter((usd) => usd >= donation.min_usd && usd <= donation.max_usd).map((usd) => (
            <button
              key={usd}
              type="button"
              aria-pressed={value === String(usd)}
              onClick={() => {
                setValue(String(usd));
                setShowProblem(false);
              }}
              className="rounded-full border border-gray-300 px-3 py-1 text-sm font-medium hover:border-primary-500 aria-pressed:border-primary-700 aria-pressed:bg-primary-700 aria-pressed:text-white dark:border-gray-700 dark:aria-pressed:border-primary-500 dark:aria-pressed:bg-primary-500 dark:aria-pressed:text-gray-950"
            >
              ${usd}
            </button>
          ))}
        </div>
        {showProblem && problem && (
          <p id="donation-error" className="mt-2 text-sm text-red-600 dark:text-red-400">
            {problem}
          </p>
        )}
        <p id="donation-help" className={`mt-3 text-sm ${mutedClass}`}>
          {t('pricing.donateRange', { min: donation.min_usd, max: donation.max_usd })} {t('pricing.donateValidity', { days: donation.validity_days })}
        </p>
        <button type="submit" disabled={busy} className={`${buttonClass} mt-5 w-full sm:w-auto`}>
          <Icon name="star" className="size-4" />
          {t('pricing.donateButton')}
        </button>
      </form>
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// /payment/test-checkout

/** The local stand-in for Stripe's page: clearly a test, Pay or Cancel run the real fulfilment. */
export function TestCheckoutPage() {
  const { t } = usePageI18n();
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

// ---------------------------------------------------------------------------------------------
// /payment/success

/**
 * After paying: order number, amount paid, payment method, View Order and Back to Home. While the
 * order is pending (the webhook has not arrived yet) it asks the server every 2 s, for 2 minutes
 * at most; the server asks the gateway meanwhile.
 */
export function PaymentSuccessPage() {
  const { t, tag } = usePageI18n();
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
  if (!session.loaded || (key && state?.key !== key)) {
    return (
      <AccountPage title={title}>
        <Loading />
      </AccountPage>
    );
  }
  if (!session.userInfo) {
    return (
      <AccountPage title={title}>
        <SignInPrompt message={t('checkout.signIn')} />
      </AccountPage>
    );
  }
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

// ---------------------------------------------------------------------------------------------
// /billing

/**
 * The billing history (spec: order id, amount, refunded amount, status, credits, created at),
 * newest first, 20 a page. ?order=<id> highlights that order (the success page's View Order).
 * Below the sm breakpoint each row becomes a card of label and value pairs.
 */
export function BillingPage() {
  const { t } = usePageI18n();
  const { search } = useLocation();
  const page = pageParam(search);
  const highlight = orderParam(search);
  const [remote, retry] = useAccountData<Paged<OrderView>>(`/api/v1/orders?page=${page}`);

  return (
    <AccountPage title={t('billing.title')} wide>
      <Account
        remote={remote}
        retry={retry}
        signIn={t('billing.signIn')}
        ready={(orders) =>
          orders.total === 0 ? (
            <div className={`${cardClass} text-center`}>
              <p className="text-lg font-semibold">{t('billing.empty')}</p>
              <p className={`mt-1 ${mutedClass}`}>{t('billing.emptyText')}</p>
              <Link to="/pricing" className={`${buttonClass} mt-5`}>
                {t('billing.emptyLink')}
              </Link>
            </div>
          ) : (
            <>
              <OrdersTable orders={orders.items} highlight={highlight} onChanged={retry} />
              <Pager path="/billing" page={orders.page} pages={orders.pages} />
            </>
          )
        }
      />
    </AccountPage>
  );
}

/** Table cells that become "label: value" lines of a card on phones. */
const cell = 'px-4 py-3 max-sm:flex max-sm:justify-between max-sm:gap-4 max-sm:px-0 max-sm:py-1 max-sm:text-right max-sm:before:text-left max-sm:before:font-normal max-sm:before:text-gray-500 max-sm:before:content-[attr(data-label)] dark:max-sm:before:text-gray-400';

/** A pending order's way on: back to its checkout, or cancel it. */
function PendingActions({ order, onChanged }: { order: OrderView; onChanged: () => void }) {
  const { t } = usePageI18n();
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

function OrdersTable({ orders, highlight, onChanged }: { orders: OrderView[]; highlight: string | null; onChanged: () => void }) {
  const { t, tag } = usePageI18n();
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
                  </span>
                </td>
                <td data-label={headers[4]} className={`${cell} text-right tabular-nums`}>
                  {order.credits.toLocaleString(tag)}
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

// ---------------------------------------------------------------------------------------------
// /usage

/**
 * Usage: the balance, the lots (soonest to expire first, those within 7 days marked), credits used
 * per day over 30 days, and the history of grants, spends, refunds and expiries.
 */
export function UsagePage() {
  const { t, tag } = usePageI18n();
  const { search } = useLocation();
  const session = useSession();
  const credits = useCredits();
  const page = pageParam(search);
  const [history, retryHistory] = useAccountData<Paged<LedgerEventView>>(`/api/v1/credits/history?page=${page}`);
  const email = session.userInfo?.email;

  useEffect(() => {
    if (email) void refreshCredits();
  }, [email]);

  const title = t('usage.title');
  if (!session.loaded) {
    return (
      <AccountPage title={title}>
        <Loading />
      </AccountPage>
    );
  }
  if (!session.userInfo) {
    return (
      <AccountPage title={title}>
        <SignInPrompt message={t('usage.signIn')} />
      </AccountPage>
    );
  }
  const view = credits.view;
  return (
    <AccountPage title={title} wide>
      {view ? (
        <div className="grid gap-6 lg:grid-cols-[1fr_2fr]">
          <section aria-labelledby="balance" className={`${cardClass} lg:self-start`}>
            <h2 id="balance" className={`text-sm font-semibold tracking-wide uppercase ${mutedClass}`}>
              {t('usage.balance')}
            </h2>
            <p className="mt-2 text-4xl font-extrabold tracking-tight tabular-nums" data-testid="usage-balance">
              {creditsLabel(t, view.balance, tag)}
            </p>
            {view.trial_refused ? (
              <p className={`mt-3 text-sm ${mutedClass}`} data-testid="trial-refused">
                {t('usage.trialRefused')}
              </p>
            ) : null}
            <Link to="/pricing" className={`${buttonClass} mt-5 w-full`}>
              {t('usage.buy')}
            </Link>
          </section>
          <Lots lots={view.lots} />
          <UsageChart daily={view.daily_usage} />
        </div>
      ) : credits.failed ? (
        <LoadFailed retry={() => void refreshCredits()} />
      ) : (
        <Loading />
      )}

      <section aria-labelledby="history" className="mt-10">
        <h2 id="history" className="text-xl font-bold">
          {t('usage.history')}
        </h2>
        <div className="mt-4">
          <Account
            remote={history}
            retry={retryHistory}
            signIn={t('usage.signIn')}
            ready={(events) =>
              events.total === 0 ? (
                <p className={`${cardClass} ${mutedClass}`}>{t('usage.historyEmpty')}</p>
              ) : (
                <>
                  <HistoryList events={events.items} />
                  <Pager path="/usage" page={events.page} pages={events.pages} />
                </>
              )
            }
          />
        </div>
      </section>
    </AccountPage>
  );
}

function Lots({ lots }: { lots: CreditsView['lots'] }) {
  const { t, tag } = usePageI18n();
  return (
    <section aria-labelledby="lots" className={cardClass}>
      <h2 id="lots" className="text-lg font-bold">
        {t('usage.lots')}
      </h2>
      {lots.length ? (
        <>
          <p className={`mt-1 text-sm ${mutedClass}`}>{t('usage.lotsIntro')}</p>
          <ul className="mt-4 space-y-3">
            {lots.map((lot) => (
              <li
                key={lot.id}
                data-expiring-soon={lot.expiring_soon || undefined}
                className="rounded-2xl border border-gray-200 p-4 data-expiring-soon:border-amber-400 data-expiring-soon:bg-amber-50 dark:border-gray-800 dark:data-expiring-soon:border-amber-500 dark:data-expiring-soon:bg-amber-950/40"
              >
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <p className="font-semibold">{t(LOT_SOURCE_KEYS[lot.source])}</p>
                  {lot.expiring_soon && <Badge tone="amber">{t('usage.expiringSoon')}</Badge>}
                </div>
                <p className="mt-1 text-sm">
                  {t('usage.lotRemaining', { remaining: lot.remaining.toLocaleString(tag), granted: lot.granted.toLocaleString(tag) })}
                </p>
                <div className="mt-2 h-1.5 overflow-hidden rounded-full bg-gray-100 dark:bg-gray-800" aria-hidden="true">
                  <div className="h-full rounded-full bg-primary-500" style={{ width: `${lot.granted ? Math.round((lot.remaining / lot.granted) * 100) : 0}%` }} />
                </div>
                <p className={`mt-2 text-sm ${lot.expiring_soon ? 'font-semibold text-amber-800 dark:text-amber-300' : mutedClass}`}>
                  <time dateTime={lot.expires_at}>{t('usage.expires', { date: formatDateTime(lot.expires_at, tag) })}</time>
                </p>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className={`mt-3 ${mutedClass}`}>{t('usage.lotsEmpty')}</p>
      )}
    </section>
  );
}

const CHART_WIDTH = 600;
const CHART_HEIGHT = 160;
const dayLabel = (date: string, tag: string) => dateFormat(tag, 'shortDay').format(new Date(`${date}T00:00:00Z`));

/** Credits used per day over the last 30 days: an inline SVG, described in words for screen readers. */
function UsageChart({ daily }: { daily: CreditsView['daily_usage'] }) {
  const { t, tag } = usePageI18n();
  const { bars, max, total, busiest } = usageChart(daily, CHART_WIDTH, CHART_HEIGHT);
  const first = daily[0];
  const last = daily[daily.length - 1];
  const summary = busiest
    ? t('usage.chartSummary', { total: creditsLabel(t, total, tag), date: dayLabel(busiest.date, tag), max: creditsLabel(t, max, tag) })
    : t('usage.chartEmpty');
  return (
    <section aria-labelledby="chart-title" className={`${cardClass} lg:col-span-2`}>
      <h2 id="chart-title" className="text-lg font-bold">
        {t('usage.chart')}
      </h2>
      {first && last && <p className={`text-sm ${mutedClass}`}>{t('usage.chartRange', { from: dayLabel(first.date, tag), to: dayLabel(last.date, tag) })}</p>}
      <figure className="mt-4">
        <div className="flex gap-2">
          <div className={`flex w-6 flex-col justify-between text-right text-xs tabular-nums ${mutedClass}`} aria-hidden="true">
            {max > 0 && (
              <>
                <span>{max.toLocaleString(tag)}</span>
                <span>0</span>
              </>
            )}
          </div>
          <svg
            viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
            preserveAspectRatio="none"
            role="img"
            aria-labelledby="chart-svg-title chart-svg-desc"
            className="h-40 w-full min-w-0 flex-1 text-primary-500 dark:text-primary-400"
            data-testid="usage-chart"
          >
            <title id="chart-svg-title">{t('usage.chart')}</title>
            <desc id="chart-svg-desc">{summary}</desc>
            <line x1="0" y1={CHART_HEIGHT - 0.5} x2={CHART_WIDTH} y2={CHART_HEIGHT - 0.5} className="stroke-gray-300 dark:stroke-gray-700" strokeWidth="1" />
            <line x1="0" y1="0.5" x2={CHART_WIDTH} y2="0.5" className="stroke-gray-200 dark:stroke-gray-800" strokeWidth="1" strokeDasharray="4 4" />
            {bars.map((bar) =>
              bar.height ? (
                <rect key={bar.date} x={bar.x} y={bar.y} width={bar.width} height={bar.height} rx="2" fill="currentColor">
                  <title>{`${dayLabel(bar.date, tag)}: ${creditsLabel(t, bar.credits, tag)}`}</title>
                </rect>
              ) : null,
            )}
          </svg>
        </div>
        {first && last && (
          <div className={`mt-1 flex justify-between pl-8 text-xs ${mutedClass}`} aria-hidden="true">
            <span>{dayLabel(first.date, tag)}</span>
            <span>{dayLabel(last.date, tag)}</span>
          </div>
        )}
        <figcaption className={`mt-3 text-sm ${mutedClass}`}>{summary}</figcaption>
      </figure>
    </section>
  );
}

function HistoryList({ events }: { events: LedgerEventView[] }) {
  const { t, tag } = usePageI18n();
  return (
    <ul className="divide-y divide-gray-200 rounded-3xl border border-gray-200 bg-white shadow-sm dark:divide-gray-800 dark:border-gray-800 dark:bg-gray-900/60">
      {events.map((event) => (
        <li key={event.id} data-kind={event.kind} className="flex items-center justify-between gap-4 px-4 py-3 sm:px-6">
          <div className="min-w-0">
            <p className="flex flex-wrap items-center gap-2">
              <Badge tone={event.credits > 0 ? 'green' : event.kind === 'spend' ? 'gray' : 'amber'}>{t(LEDGER_KIND_KEYS[event.kind])}</Badge>
              <span className="font-medium break-words">{event.description}</span>
            </p>
            <p className={`mt-0.5 text-xs ${mutedClass}`}>
              <time dateTime={event.created_at}>{formatDateTime(event.created_at, tag)}</time>
            </p>
          </div>
          <p className={`shrink-0 font-semibold tabular-nums ${event.credits > 0 ? 'text-primary-700 dark:text-primary-400' : ''}`}>{signedNumber(event.credits, tag)}</p>
        </li>
      ))}
    </ul>
  );
}
