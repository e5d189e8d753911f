import { useState } from 'react';
import type { AccountView } from 'src/contracts/account';
import { Account, AccountPage, cardClass, mutedClass, secondaryButtonClass, useAccountData } from 'web/components/account-ui';
import { MailSwitches, PasswordChange } from 'web/features/auth/account-settings';
import { Field, inputClass } from 'web/features/auth/auth-form';
import { useAccountI18n } from 'web/i18n/account-messages';
import { ApiError, apiRequest } from 'web/lib/api';
import { formatDateTime } from 'web/lib/billing-format';
import { useNavigate } from 'web/lib/router/router';
import { signedOut } from 'web/lib/session';
import { notify } from 'web/lib/toasts';

/** "Delete my account": the password (or a fresh sign-in by link), a confirmation, then the account is gone. */
function DeleteAccount({ account }: { account: AccountView }) {
  const { t } = useAccountI18n();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    if (!window.confirm(t('accountPage.deleteConfirm'))) return;
    setBusy(true);
    try {
      await apiRequest(t, 'DELETE', '/api/v1/account', password ? { password } : {});
      signedOut();
      notify(t('accountPage.deleted'), 'success');
      void navigate('/');
    } catch (error) {
      if (error instanceof ApiError) notify(error.message, 'error');
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="delete-title" className="rounded-3xl border border-red-200 bg-white p-6 shadow-sm dark:border-red-900 dark:bg-gray-900/60">
      <h2 id="delete-title" className="text-lg font-bold text-red-800 dark:text-red-300">
        {t('accountPage.deleteTitle')}
      </h2>
      <p className={`mt-2 text-sm ${mutedClass}`} data-testid="kept-after-deletion">
        {account.kept_after_deletion}
      </p>
      <div className="mt-4 space-y-4">
        <Field id="delete-password" label={t('accountPage.deletePassword')}>
          <input id="delete-password" type="password" autoComplete="current-password" className={inputClass} value={password} onChange={(event) => setPassword(event.target.value)} />
          <p className={`mt-1 text-sm ${mutedClass}`}>{t('accountPage.deleteHint')}</p>
        </Field>
        <button
          type="button"
          disabled={busy}
          onClick={() => void remove()}
          className="inline-flex items-center justify-center rounded-full bg-red-700 px-5 py-2.5 font-semibold text-white shadow-sm hover:bg-red-800 disabled:opacity-60"
        >
          {t('accountPage.delete')}
        </button>
      </div>
    </section>
  );
}

function AccountDetails({ account }: { account: AccountView }) {
  const { t, tag } = useAccountI18n();
  const methods = [
    ...(account.sign_in_methods.password ? [t('accountPage.methodPassword')] : []),
    ...(account.sign_in_methods.google ? [t('accountPage.methodGoogle')] : []),
    t('accountPage.methodLink'),
  ];
  return (
    <div className="space-y-6">
      <dl className={`${cardClass} grid gap-3 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-6`}>
        <dt className={mutedClass}>{t('accountPage.email')}</dt>
        <dd className="font-semibold break-all" data-testid="account-page-email">
          {account.email}
        </dd>
        <dt className={mutedClass}>{t('accountPage.since')}</dt>
        <dd>
          <time dateTime={account.created_at}>{formatDateTime(account.created_at, tag)}</time>
        </dd>
        <dt className={mutedClass}>{t('accountPage.methods')}</dt>
        <dd>{methods.join(', ')}</dd>
      </dl>
      <PasswordChange />
      <MailSwitches />
      <section aria-labelledby="data-title" className={cardClass}>
        <h2 id="data-title" className="text-lg font-bold">
          {t('accountPage.dataTitle')}
        </h2>
        <p className={`mt-2 text-sm ${mutedClass}`}>{t('accountPage.dataText')}</p>
        <a href="/api/v1/account/export" download className={`${secondaryButtonClass} mt-4`} data-testid="download-my-data">
          {t('accountPage.download')}
        </a>
      </section>
      <DeleteAccount account={account} />
    </div>
  );
}

/** /account: the account, a new password, the reminder switches, "Download my data" and "Delete my account". */
export default function AccountSettingsPage() {
  const { t } = useAccountI18n();
  const [remote, retry] = useAccountData<AccountView>('/api/v1/account');
  return (
    <AccountPage title={t('accountPage.title')} testNote={false}>
      <Account remote={remote} retry={retry} signIn={t('accountPage.signIn')} ready={(account) => <AccountDetails account={account} />} />
    </AccountPage>
  );
}
