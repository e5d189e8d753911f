import { useState } from 'react';
import { passwordChangeSchema } from 'src/contracts/auth.schema';
import type { MailPreferencesView } from 'src/contracts/account';
import { cardClass, mutedClass, useAccountData } from 'web/components/account-ui';
import { Field, inputClass, NewPasswordFields, useValidatedForm } from 'web/features/auth/auth-form';
import { useAccountI18n } from 'web/i18n/account-messages';
import { ApiError, apiRequest } from 'web/lib/api';
import { notify } from 'web/lib/toasts';

const sectionTitle = 'text-lg font-bold';
const smallButton =
  'inline-flex items-center justify-center rounded-full bg-primary-700 px-5 py-2.5 font-semibold text-white shadow-sm transition hover:bg-primary-800 disabled:opacity-60 dark:bg-primary-500 dark:text-gray-950 dark:hover:bg-primary-400';

/** A new password, proven with the current one (or a fresh sign-in by link). */
export function PasswordChange() {
  const { t } = useAccountI18n();
  const form = useValidatedForm(passwordChangeSchema, { current_password: '', password: '', password_confirmation: '' });
  const submit = form.onSubmit(async () => {
    await apiRequest(t, 'PUT', '/api/v1/account/password', form.values);
    notify(t('accountPage.passwordSaved'), 'success');
  });
  return (
    <section aria-labelledby="password-title" className={cardClass}>
      <h2 id="password-title" className={sectionTitle}>
        {t('accountPage.passwordTitle')}
      </h2>
      <form noValidate onSubmit={submit} className="mt-4 space-y-4">
        <Field id="current_password" label={t('accountPage.currentPassword')} error={form.errors.current_password}>
          <input id="current_password" type="password" autoComplete="current-password" className={inputClass} {...form.field('current_password')} />
          <p className={`mt-1 text-sm ${mutedClass}`}>
            {t('accountPage.currentPasswordHint')}
          </p>
        </Field>
        <NewPasswordFields form={form} label={t('auth.newPassword')} confirmLabel={t('auth.passwordConfirm')} />
        <button type="submit" disabled={form.busy} className={smallButton}>
          {t('accountPage.savePassword')}
        </button>
      </form>
    </section>
  );
}

/** The two reminder switches (the mails' unsubscribe links turn the same ones off). */
export function MailSwitches() {
  const { t } = useAccountI18n();
  const [remote, retry] = useAccountData<MailPreferencesView>('/api/v1/account/mail-preferences');
  const [saving, setSaving] = useState(false);
  const set = async (change: Partial<MailPreferencesView>) => {
    setSaving(true);
    try {
      await apiRequest(t, 'PUT', '/api/v1/account/mail-preferences', change);
      notify(t('accountPage.mailSaved'), 'success');
    } catch (error) {
      if (error instanceof ApiError) notify(error.message, 'error');
    }
    setSaving(false);
    retry();
  };
  const prefs = remote.status === 'ready' ? remote.data : null;
  const row = (key: keyof MailPreferencesView, label: string) => (
    <label className="flex items-start gap-3 py-2">
      <input
        type="checkbox"
        role="switch"
        className="mt-1 size-5 accent-primary-700"
        checked={prefs?.[key] ?? true}
        disabled={!prefs || saving}
        onChange={(event) => void set({ [key]: event.target.checked })}
        data-testid={`mail-${key}`}
      />
      <span>{label}</span>
    </label>
  );
  return (
    <section aria-labelledby="mail-title" className={cardClass}>
      <h2 id="mail-title" className={sectionTitle}>
        {t('accountPage.mailTitle')}
      </h2>
      <div className="mt-2">
        {row('low_balance', t('accountPage.mailLowBalance'))}
        {row('expiry', t('accountPage.mailExpiry'))}
      </div>
    </section>
  );
}
