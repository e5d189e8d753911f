import { useEffect, useState } from 'react';
import { INSUFFICIENT_CREDITS, type CheckoutInput, type CheckoutView } from 'src/contracts/billing';
import { formatUsd } from 'web/lib/money';
import { buttonClass, linkClass, mutedClass, secondaryButtonClass, useSession } from 'web/components/account-ui';
import { Icon } from 'web/components/icons';
import { Seo } from 'web/components/seo';
import { TestModeNote } from 'web/components/test-mode-note';
import { useAccountI18n } from 'web/i18n/account-messages';
import { ApiError, apiRequest } from 'web/lib/api';
import { creditsLabel } from 'web/lib/credits';
import { openLoginModal } from 'web/lib/login-modal';
import { Link, useLoaderData } from 'web/lib/router/router';
import { sessionLoaded, sessionStore, signedOut } from 'web/lib/session';
import { notify } from 'web/lib/toasts';
import { DonationForm } from 'web/features/billing/donation-form';
import { RefundRuleNote } from 'web/features/billing/refund-rule-note';
import type loader from 'web/features/billing/pricing.loader';

/**
 * /pricing: the packs as cards, the free trial, and the donation form. Buying while signed out
 * opens the login modal first, then goes on with the purchase; checkout sends the browser to the
 * payment page (Stripe's, or the local test checkout).
 */
export default function PricingPage() {
  const pricing = useLoaderData<typeof loader>();
  const { t, tag } = useAccountI18n();
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

      <RefundRuleNote rule={pricing.refund_rule} className="mt-8" />
      <p className={`mt-2 text-sm ${mutedClass}`}>
        {t('pricing.footnote')}{' '}
        <Link to="/refund-policy" className={linkClass}>
          {t('pricing.refundPolicy')}
        </Link>
      </p>
    </main>
  );
}
