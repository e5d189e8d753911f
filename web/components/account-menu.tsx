import { useEffect, useRef, useState, useSyncExternalStore, type ComponentType } from 'react';
import { useT } from 'web/i18n/i18n';
import { ApiError, apiRequest } from 'web/lib/api';
import { useSiteConfig } from 'web/lib/root-data';
import { useLocation, useNavigate } from 'web/lib/router/router';
import { configureSession, loadUserInfo, sessionStore, signedOut } from 'web/lib/session';
import { notify } from 'web/lib/toasts';
import { Icon } from './icons';

let started = false;

/**
 * The header's account corner (only with has_login): 'Sign in' opening the login modal, or the
 * signed-in user's menu (email, sign out). User state loads in the browser, so pages stay cacheable.
 */
export function AccountMenu() {
  const { settings } = useSiteConfig();
  const t = useT();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const session = useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.serverGet);
  const dialog = useRef<HTMLDialogElement>(null);
  const [LoginForm, setLoginForm] = useState<ComponentType<{ onDone?: () => void }>>();

  useEffect(() => {
    if (!settings.has_login || started) return;
    started = true;
    configureSession(true);
    void loadUserInfo();
  }, [settings.has_login]);

  // Signed-in users are kept out of /auth pages (spec).
  useEffect(() => {
    if (session.userInfo && pathname.startsWith('/auth')) void navigate('/', { replace: true });
  }, [session.userInfo, pathname, navigate]);

  if (!settings.has_login || !session.loaded) return null;

  if (session.userInfo) {
    const signOut = async () => {
      try {
        await apiRequest(t, 'DELETE', '/auth/sign_out');
        signedOut();
        notify(t('account.signOutSuccess'));
      } catch (error) {
        if (!(error instanceof ApiError)) return;
        notify(t('account.signOutFailed', { errors: error.errors.join(', ') || error.message }), 'error');
        // The session had already ended (signed out elsewhere, expired): show it as signed out.
        if (error.status === 401) signedOut();
      }
    };
    return (
      <details className="relative">
        <summary
          aria-label={t('account.menu')}
          className="flex size-9 cursor-pointer list-none items-center justify-center rounded-full bg-primary-600 text-sm font-bold text-white uppercase dark:bg-primary-500 dark:text-gray-950"
        >
          {session.userInfo.email.slice(0, 1)}
        </summary>
        <div className="absolute right-0 z-50 mt-2 w-64 rounded-2xl border border-gray-200 bg-white p-2 shadow-lg dark:border-gray-800 dark:bg-gray-900">
          <p className="truncate px-3 py-2 text-sm text-gray-600 dark:text-gray-400" data-testid="account-email">
            {session.userInfo.email}
          </p>
          <button type="button" onClick={signOut} className="w-full rounded-lg px-3 py-2 text-left text-sm font-medium hover:bg-gray-100 dark:hover:bg-gray-800">
            {t('account.signOut')}
          </button>
        </div>
      </details>
    );
  }

  const open = () => {
    // The form's code (and its validation rules) loads only when someone wants to sign in.
    void import('web/routes/auth.pages').then((m) => {
      setLoginForm(() => m.LoginForm);
      dialog.current?.showModal();
    });
  };
  return (
    <>
      {/* An icon on phones, where the header is full; the words from the sm breakpoint. */}
      <button
        type="button"
        onClick={open}
        className="inline-flex size-9 shrink-0 items-center justify-center rounded-full text-sm font-semibold text-primary-700 hover:bg-primary-50 sm:w-auto sm:px-3 dark:text-primary-400 dark:hover:bg-gray-800"
      >
        <Icon name="user" className="size-5 sm:hidden" />
        <span className="sr-only sm:not-sr-only">{t('account.signIn')}</span>
      </button>
      <dialog
        ref={dialog}
        aria-label={t('account.signIn')}
        className="m-auto w-[min(28rem,calc(100%-2rem))] rounded-3xl bg-white p-6 text-gray-900 shadow-xl backdrop:bg-gray-950/50 dark:bg-gray-900 dark:text-gray-100"
      >
        <div className="mb-4 flex items-center justify-between">
          <h2 className="text-xl font-bold">{t('account.signIn')}</h2>
          <button type="button" onClick={() => dialog.current?.close()} aria-label={t('account.close')} className="rounded-full px-2 py-1 text-gray-500 hover:bg-gray-100 dark:hover:bg-gray-800">
            ✕
          </button>
        </div>
        {LoginForm && <LoginForm onDone={() => dialog.current?.close()} />}
      </dialog>
    </>
  );
}
