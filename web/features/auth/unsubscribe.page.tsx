import { useState, useSyncExternalStore } from 'react';
import type { UnsubscribeView } from 'src/contracts/account';
import { AccountPage, buttonClass, cardClass, linkClass } from 'web/components/account-ui';
import { useAccountI18n } from 'web/i18n/account-messages';
import { ApiError, apiRequest } from 'web/lib/api';
import { Link } from 'web/lib/router/router';
import { tokenFromHash } from 'web/features/auth/auth-form';
import { notify } from 'web/lib/toasts';

/**
 * /account/unsubscribe#token=… (after '#': it never reaches a server log): the reminder mails' link for people, no sign-in needed. A button
 * (a mail scanner following the link changes nothing); the mail's List-Unsubscribe header posts
 * to the same API directly (RFC 8058).
 */
/** The hash is read once; nothing on this page changes it. */
const noChanges = () => () => undefined;

export default function UnsubscribePage() {
  const { t } = useAccountI18n();
  // The server never sees the hash: undefined there and while hydrating, then the link's token.
  const token = useSyncExternalStore(noChanges, tokenFromHash, () => undefined);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const unsubscribe = async () => {
    setBusy(true);
    try {
      await apiRequest<UnsubscribeView>(t, 'POST', `/api/v1/reminders/unsubscribe?token=${encodeURIComponent(token ?? '')}`);
      setDone(true);
    } catch (error) {
      if (error instanceof ApiError) notify(error.message, 'error');
    }
    setBusy(false);
  };
  return (
    <AccountPage title={t('unsubscribe.title')} testNote={false}>
      <div className={cardClass}>
        {token === undefined ? null : !token ? (
          <p>{t('unsubscribe.noToken')}</p>
        ) : done ? (
          <p role="status">{t('unsubscribe.done')}</p>
        ) : (
          <>
            <p>{t('unsubscribe.text')}</p>
            <button type="button" disabled={busy} onClick={() => void unsubscribe()} className={`${buttonClass} mt-4`}>
              {t('unsubscribe.button')}
            </button>
          </>
        )}
        <p className="mt-4">
          <Link to="/account" className={linkClass}>
            {t('accountPage.title')}
          </Link>
        </p>
      </div>
    </AccountPage>
  );
}
