import type { RefundRule } from 'src/contracts/billing';
import { mutedClass } from 'web/components/account-ui';
import { useAccountI18n } from 'web/i18n/account-messages';

/** The refund rule in its numbers (REFUND_WINDOW_DAYS, REFUND_MAX_USED_PERCENT), on /pricing and /billing. */
export function RefundRuleNote({ rule, className = '' }: { rule: RefundRule; className?: string }) {
  const { t } = useAccountI18n();
  return (
    <p className={`text-sm ${mutedClass} ${className}`} data-testid="refund-rule">
      {rule.window_days > 0 ? t('refundRule.text', { days: rule.window_days, percent: rule.max_used_percent }) : t('refundRule.none')}
    </p>
  );
}
