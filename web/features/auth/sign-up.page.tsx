// First: zod must be jitless before any schema is built (see the module).
import 'web/lib/zod-jitless';
import { signUpSchema } from 'src/contracts/auth.schema';
import { AuthCard, buttonClass, Field, inputClass, linkClass, NewPasswordFields, useValidatedForm } from 'web/features/auth/auth-form';
import { useAccountI18n } from 'web/i18n/account-messages';
import { apiRequest } from 'web/lib/api';
import { useSiteConfig } from 'web/lib/root-data';
import { Link, useNavigate } from 'web/lib/router/router';

export default function SignUpPage() {
  const { t } = useAccountI18n();
  const { trialCredits } = useSiteConfig();
  const navigate = useNavigate();
  const form = useValidatedForm(signUpSchema, { email: '', password: '', password_confirmation: '' });
  const submit = form.onSubmit(async () => {
    await apiRequest(t, 'POST', '/auth/sign_up', form.values);
    void navigate(`/auth/email_verifications?${new URLSearchParams({ email: form.values.email!.trim(), type: 'account_confirm' })}`);
  });

  return (
    <AuthCard title={t('auth.signUpTitle')}>
      {trialCredits > 0 && (
        <p className="mb-5 rounded-2xl bg-primary-50 px-4 py-3 text-sm text-primary-900 dark:bg-primary-950/50 dark:text-primary-100" data-testid="trial-offer">
          <strong>{t('auth.trialTitle')}</strong> {t('auth.trialText', { credits: trialCredits })}
        </p>
      )}
      <form noValidate onSubmit={submit} className="space-y-4">
        <Field id="email" label={t('auth.email')} error={form.errors.email}>
          <input id="email" type="email" required maxLength={256} autoComplete="email" className={inputClass} {...form.field('email')} />
        </Field>
        <NewPasswordFields form={form} label={t('auth.passwordMin')} confirmLabel={t('auth.passwordConfirm')} />
        <button type="submit" disabled={form.busy} className={buttonClass}>
          {t('auth.signUp')}
        </button>
        <p className="text-sm">
          {t('auth.haveAccount')}{' '}
          <Link to="/auth/login" className={linkClass}>
            {t('auth.signIn')}
          </Link>
        </p>
      </form>
    </AuthCard>
  );
}
