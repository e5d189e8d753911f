import { useEffect, useRef } from 'react';
import { useT } from 'web/i18n/i18n';
import type { LoginModalRequest } from 'web/lib/login-modal';
import { LoginForm } from 'web/features/auth/login-form';
import { modalClass } from 'web/components/modal-class';

/**
 * The login modal: a <dialog> shown as soon as it mounts (and again for a new request while
 * mounted), with the login form. A chunk of its own with the form and its validation rules, loaded
 * when someone asks to sign in; `onClosed` lets the header unmount it.
 */
export function LoginDialog({ request, onClosed }: { request: LoginModalRequest; onClosed: () => void }) {
  const t = useT();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [request]);
  const close = () => dialog.current?.close();
  return (
    <dialog
      ref={dialog}
      onClose={onClosed}
      aria-label={t('account.signIn')}
      className={`${modalClass} w-[min(28rem,calc(100%-2rem))]`}
    >
      <div className="mb-4 flex items-center justify-between">
        <h2 className="text-xl font-bold">{t('account.signIn')}</h2>
        <button type="button" onClick={close} aria-label={t('account.close')} className="rounded-full px-2 py-1 text-gray-500 hover:bg-gray-100 dark:hover:bg-gray-800">
          ✕
        </button>
      </div>
      <LoginForm onDone={close} onSignedIn={request.onSignedIn} />
    </dialog>
  );
}
