// First: zod must be jitless before any schema is built (see the module).
import 'web/lib/zod-jitless';
import { newPasswordSchema } from 'src/contracts/auth.schema';
import { AuthCard, buttonClass, NewPasswordFields, tokenFromHash, useValidatedForm } from 'web/features/auth/auth-form';
import { useAccountI18n } from 'web/i18n/account-messages';
import { apiRequest } from 'web/lib/api';
import { useNavigate } from 'web/lib/router/router';
import { notify } from 'web/lib/toasts';

export default function PasswordResetPage() {
  const { t } = useAccountI18n();
  const navigate = useNavigate();
  const form = useValidatedForm(newPasswordSchema, { password: '', password_confirmation: '' });
  const submit = form.onSubmit(async () => {
    await apiRequest(t, 'PUT', '/auth/password', { ...form.values, token: tokenFromHash() });
    notify(t('auth.passwordChanged'));
    void navigate('/auth/login');
  });
  return (
    <AuthCard title={t('auth.resetTitle')}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <NewPasswordFields form={form} label={t('auth.newPassword')} confirmLabel={t('auth.passwordConfirm')} />
        <button type="submit" disabled={form.busy} className={buttonClass}>
          {t('auth.setPassword')}
        </button>
      </form>
    </AuthCard>
  );
}
