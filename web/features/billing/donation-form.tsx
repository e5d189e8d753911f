import { useState, type FormEvent } from 'react';
import type { PricingData } from 'src/contracts/billing';
import { buttonClass, cardClass, mutedClass } from 'web/components/account-ui';
import { Icon } from 'web/components/icons';
import { useAccountI18n } from 'web/i18n/account-messages';
import { checkDonation } from 'web/lib/billing-format';
import { creditsLabel } from 'web/lib/credits';

const DONATION_PRESETS = [2, 5, 10, 25];

export function DonationForm({ donation, busy, onDonate }: { donation: PricingData['donation']; busy: boolean; onDonate: (usd: number) => void }) {
  const { t, tag } = useAccountI18n();
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
