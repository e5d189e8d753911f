import { useEffect, useState } from 'react';
import { AuthCard, buttonClass, tokenFromHash } from 'web/features/auth/auth-form';
import { useAccountI18n } from 'web/i18n/account-messages';
import { apiRequest } from 'web/lib/api';
import { Link } from 'web/lib/router/router';

/** Opened from the confirmation email: confirms once, then offers to sign in. */
export default function ConfirmPage() {
  const { t } = useAccountI18n();
  const [result, setResult] = useState<'pending' | 'done' | 'failed'>('pending');
  useEffect(() => {
    let live = true;
    const token = tokenFromHash();
    // A link without its token (cut off when copied) cannot confirm anything: say so without asking the server.
    const confirmed = token ? apiRequest(t, 'POST', '/auth/confirm', { token }) : Promise.reject(new Error('no token'));
    confirmed.then(
      () => live && setResult('done'),
      () => live && setResult('failed'),
    );
    return () => {
      live = false;
    };
  }, [t]);
  return (
    <AuthCard title={t('auth.confirmTitle')}>
      <p role="status" className="text-gray-700 dark:text-gray-300">
        {result === 'pending' ? t('auth.confirming') : result === 'done' ? t('auth.confirmed') : t('auth.invalidLink')}
      </p>
      {result === 'done' && (
        <Link to="/auth/login" className={`${buttonClass} mt-6`}>
          {t('auth.signIn')}
        </Link>
      )}
    </AuthCard>
  );
}
