// First: zod must be jitless before any schema is built (see the module).
import 'web/lib/zod-jitless';
import { useState } from 'react';
import { emailOnlySchema } from 'src/contracts/auth.schema';
import { AuthCard, buttonClass, Field, inputClass, useValidatedForm } from 'web/features/auth/auth-form';
import { useAccountI18n } from 'web/i18n/account-messages';
import { apiRequest } from 'web/lib/api';

export default function ForgotPasswordPage() {
  const { t } = useAccountI18n();
  const form = useValidatedForm(emailOnlySchema, { email: '' });
  const [sent, setSent] = useState(false);
  const submit = form.onSubmit(async () => {
    await apiRequest(t, 'POST', '/auth/password', form.values);
    setSent(true);
  });
  return (
    <AuthCard title={t('auth.forgotTitle')}>
      {sent ? (
        <p role="status">{t('auth.forgotSent')}</p>
      ) : (
        <form noValidate onSubmit={submit} className="space-y-4">
          <Field id="email" label={t('auth.email')} error={form.errors.email}>
            <input id="email" type="email" required maxLength={256} autoComplete="email" className={inputClass} {...form.field('email')} />
          </Field>
          <button type="submit" disabled={form.busy} className={buttonClass}>
            {t('auth.sendReset')}
          </button>
        </form>
      )}
    </AuthCard>
  );
}
