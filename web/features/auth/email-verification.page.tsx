import { useState } from 'react';
import { AuthCard, buttonClass } from 'web/features/auth/auth-form';
import { useAccountI18n } from 'web/i18n/account-messages';
import { ApiError, apiRequest } from 'web/lib/api';
import { useLocation } from 'web/lib/router/router';
import { notify } from 'web/lib/toasts';

/** After sign-up (or an unconfirmed sign-in): where the link went, and the Resend button. */
export default function EmailVerificationPage() {
  const { t } = useAccountI18n();
  const { search } = useLocation();
  const email = new URLSearchParams(search).get('email')?.slice(0, 256) ?? '';
  const [busy, setBusy] = useState(false);
  const resend = async () => {
    setBusy(true);
    try {
      await apiRequest(t, 'POST', '/auth/confirmation', { email });
      notify(t('auth.resent'));
    } catch (error) {
      if (error instanceof ApiError) notify(error.message, 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthCard title={t('auth.verifyTitle')}>
      <p className="text-gray-700 dark:text-gray-300">{email ? t('auth.verifySent', { email }) : t('auth.verifySentNoEmail')}</p>
      <p className="mt-3 text-sm text-gray-600 dark:text-gray-400">{t('auth.verifyHelp')}</p>
      {email && (
        <button type="button" onClick={resend} disabled={busy} className={`${buttonClass} mt-6`}>
          {t('auth.resend')}
        </button>
      )}
    </AuthCard>
  );
}
