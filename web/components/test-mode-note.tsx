import { useAccountI18n } from 'web/i18n/account-messages';
import { useSiteConfig } from 'web/lib/root-data';

/**
 * "Test mode": shown on every page that involves money while payments go to the local test
 * checkout (no Stripe key), so nobody takes a test purchase, a test credit or a test refund for
 * real money. Nothing when Stripe takes the payments.
 */
export function TestModeNote({ className = '' }: { className?: string }) {
  const { t } = useAccountI18n();
  if (!useSiteConfig().testPayments) return null;
  return (
    <p
      role="note"
      className={`rounded-2xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-950 dark:border-amber-700 dark:bg-amber-950/50 dark:text-amber-100 ${className}`}
      data-testid="test-mode"
    >
      {t('pricing.testMode')}
    </p>
  );
}
