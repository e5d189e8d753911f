import { AuthCard } from 'web/features/auth/auth-form';
import { LoginForm } from 'web/features/auth/login-form';
import { useAccountI18n } from 'web/i18n/account-messages';
import { useLocation } from 'web/lib/router/router';

export default function LoginPage() {
  const { t } = useAccountI18n();
  const { search } = useLocation();
  const failed = new URLSearchParams(search).get('error') === 'google';
  return (
    <AuthCard title={t('auth.loginTitle')}>
      {failed && <p role="alert" className="mb-4 rounded-xl bg-red-50 p-3 text-sm text-red-700 dark:bg-red-950/40 dark:text-red-300">{t('auth.googleFailed')}</p>}
      <LoginForm />
    </AuthCard>
  );
}
