import { lazy, Suspense, useEffect, useState, useSyncExternalStore, type ComponentType } from 'react';
import { useT } from 'web/i18n/i18n';
import { reloadForChunkError } from 'web/lib/build-check';
import { onLoginModalRequest, type LoginModalRequest } from 'web/lib/login-modal';
import { useSiteConfig } from 'web/lib/root-data';
import { useLocation, useNavigate } from 'web/lib/router/router';
import { configureSession, loadUserInfo, sessionStore } from 'web/lib/session';
import { Icon } from './icons';

let started = false;

/** A chunk that fails to load (an old file gone after a deploy) reloads the page, like a page chunk. */
const orReload = <P,>(component: Promise<ComponentType<P>>) =>
  component.then(
    (loaded) => ({ default: loaded }),
    () => ({ default: (() => (reloadForChunkError(), null)) as ComponentType<P> }),
  );

// Signed-in users and those who ask to sign in are few: their code is not in every visitor's first load.
const SignedInMenu = lazy(() => orReload(import('./signed-in-menu').then((m) => m.SignedInMenu)));
const LoginDialog = lazy(() => orReload(import('web/features/auth/login-dialog').then((m) => m.LoginDialog)));

/**
 * The header's account corner (only with has_login): 'Sign in' opening the login modal, or the
 * signed-in user's menu (SignedInMenu). User state loads in the browser, so pages stay cacheable.
 * Other code opens the login modal through web/lib/login-modal.
 */
export function AccountMenu() {
  const { settings } = useSiteConfig();
  const t = useT();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const session = useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.serverGet);
  // What asked for the modal: a page's request (continue after sign-in), or the header (go home); null while closed.
  const [login, setLogin] = useState<LoginModalRequest | null>(null);

  useEffect(() => {
    if (!settings.has_login || started) return;
    started = true;
    configureSession(true, settings.has_payment);
    void loadUserInfo();
  }, [settings.has_login, settings.has_payment]);

  // Signed-in users are kept out of /auth pages (spec).
  useEffect(() => {
    if (session.userInfo && pathname.startsWith('/auth')) void navigate('/', { replace: true });
  }, [session.userInfo, pathname, navigate]);

  useEffect(() => onLoginModalRequest(setLogin), []);
  // Signed in: the browser's progress merges into the account and follows it (loaded only then).
  useEffect(() => {
    if (session.userInfo) void import('web/lib/progress-sync').then((m) => m.startProgressSync(), () => undefined);
  }, [session.userInfo]);
  // Signed in through the modal: it has done its work (its <dialog> left with the signed-out corner),
  // so it does not open again at sign-out. Adjusted while rendering, as React advises for derived state.
  if (session.userInfo && login) setLogin(null);

  if (!settings.has_login) return null;
  // aria-busy until the session (and the menu's chunk) is in: assistive technology, and the tests, wait for it.
  if (!session.loaded) return <span aria-busy="true" className="size-9 shrink-0" />;

  if (session.userInfo) {
    return (
      <Suspense fallback={<span aria-busy="true" className="size-9 shrink-0" />}>
        <SignedInMenu user={session.userInfo} />
      </Suspense>
    );
  }

  return (
    <>
      {/* An icon on phones, where the header is full; the words from the sm breakpoint. */}
      <button
        type="button"
        onClick={() => setLogin({})}
        className="inline-flex size-9 shrink-0 items-center justify-center rounded-full text-sm font-semibold text-primary-700 hover:bg-primary-50 sm:w-auto sm:px-3 dark:text-primary-400 dark:hover:bg-gray-800"
      >
        <Icon name="user" className="size-5 sm:hidden" />
        <span className="sr-only sm:not-sr-only">{t('account.signIn')}</span>
      </button>
      {login && (
        <Suspense fallback={null}>
          <LoginDialog request={login} onClosed={() => setLogin(null)} />
        </Suspense>
      )}
    </>
  );
}
