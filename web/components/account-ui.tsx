import { useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { TestModeNote } from 'web/components/test-mode-note';
import { Icon } from 'web/components/icons';
import { Seo } from 'web/components/seo';
import { usePageI18n } from 'web/i18n/page-messages';
import { ApiError, apiRequest } from 'web/lib/api';
import { pageHref } from 'web/lib/billing-format';
import { creditsStore } from 'web/lib/credits';
import { openLoginModal } from 'web/lib/login-modal';
import { Link } from 'web/lib/router/router';
import { sessionStore, signedOut } from 'web/lib/session';

/*
 * What the pages of a signed-in user share (billing, usage, payment, the image tool): their
 * styles, the session and credits stores as hooks, data loaded for the user, the sign-in prompt,
 * the waiting and failed states, the pager and the badges. Their HTML is the same for everyone;
 * the user's part loads in the browser.
 */

export const cardClass = 'rounded-3xl border border-gray-200 bg-white p-6 shadow-sm dark:border-gray-800 dark:bg-gray-900/60';
export const buttonClass =
  'inline-flex items-center justify-center gap-2 rounded-full bg-primary-700 px-5 py-2.5 font-semibold text-white shadow-sm transition hover:bg-primary-800 disabled:opacity-60 dark:bg-primary-500 dark:text-gray-950 dark:hover:bg-primary-400';
export const secondaryButtonClass =
  'inline-flex items-center justify-center gap-2 rounded-full border border-gray-300 px-5 py-2.5 font-semibold text-gray-800 transition hover:bg-gray-50 disabled:opacity-60 dark:border-gray-700 dark:text-gray-100 dark:hover:bg-gray-800';
export const linkClass = 'font-medium text-primary-700 hover:underline dark:text-primary-400';
export const mutedClass = 'text-gray-600 dark:text-gray-400';

export const useSession = () => useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.serverGet);
export const useCredits = () => useSyncExternalStore(creditsStore.subscribe, creditsStore.get, creditsStore.serverGet);

export type Remote<T> =
  | { status: 'waiting' }
  | { status: 'signed-out' }
  | { status: 'ready'; data: T }
  | { status: 'failed'; error: unknown };

/**
 * GETs `path` for the signed-in user, again when the user or the path changes, or when `version`
 * changes (a page that knows the data moved on). 'waiting' until the session is known (and on the
 * server), 'signed-out' without a user. While a new answer is on its way the previous data of the
 * same path stays (no flash of "Loading…" on a refresh).
 */
export function useAccountData<T>(path: string | null, version: unknown = 0): [Remote<T>, () => void] {
  const { t } = usePageI18n();
  const session = useSession();
  const [attempt, setAttempt] = useState(0);
  const key = session.userInfo && path ? `${session.userInfo.email} ${path} ${attempt} ${String(version)}` : null;
  const stem = session.userInfo && path ? `${session.userInfo.email} ${path}` : null;
  const [result, setResult] = useState<{ key: string; stem: string; data?: T; error?: unknown }>();

  useEffect(() => {
    if (!key || !path || !stem) return;
    let live = true;
    apiRequest<T>(t, 'GET', path).then(
      (response) => live && setResult({ key, stem, data: response.data }),
      (error: unknown) => {
        if (!live) return;
        // The session ended meanwhile: show the page signed out.
        if (error instanceof ApiError && error.status === 401) signedOut();
        setResult({ key, stem, error });
      },
    );
    return () => {
      live = false;
    };
  }, [key, stem, path, t]);

  const retry = () => setAttempt((n) => n + 1);
  if (!session.loaded) return [{ status: 'waiting' }, retry];
  if (!session.userInfo) return [{ status: 'signed-out' }, retry];
  const current = result && (result.key === key || (result.stem === stem && result.error === undefined));
  if (!result || !current) return [{ status: 'waiting' }, retry];
  return [result.error !== undefined ? { status: 'failed', error: result.error } : { status: 'ready', data: result.data as T }, retry];
}

/** Title and page frame of the account pages (never indexed). */
/** A page of the signed-in user's credits and payments; it says "test mode" while payments are test payments (unless it has a banner of its own). */
export function AccountPage({ title, wide, testNote = true, children }: { title: string; wide?: boolean; testNote?: boolean; children: ReactNode }) {
  return (
    <main className={`mx-auto px-4 py-8 sm:px-6 sm:py-12 ${wide ? 'max-w-5xl' : 'max-w-3xl'}`}>
      <Seo title={title} noindex />
      <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{title}</h1>
      {testNote && <TestModeNote className="mt-4" />}
      <div className="mt-6">{children}</div>
    </main>
  );
}

/** "Please sign in to see …" with a button opening the login modal; the page loads its data after. */
export function SignInPrompt({ message }: { message: string }) {
  const { t } = usePageI18n();
  return (
    <div className={`${cardClass} text-center`} data-testid="sign-in-prompt">
      <Icon name="lock" className="mx-auto size-8 text-gray-400" />
      <p className="mt-3 text-lg font-medium">{message}</p>
      <button type="button" onClick={() => openLoginModal({ onSignedIn: () => undefined })} className={`${buttonClass} mt-5`}>
        {t('account.signIn')}
      </button>
    </div>
  );
}

export function Loading() {
  const { t } = usePageI18n();
  return (
    <p role="status" aria-busy="true" className={`${cardClass} animate-pulse text-center ${mutedClass}`}>
      {t('account.loading')}
    </p>
  );
}

export function LoadFailed({ retry, message }: { retry: () => void; message?: string }) {
  const { t } = usePageI18n();
  return (
    <div role="alert" className="rounded-3xl border border-red-200 bg-red-50 p-6 text-center text-red-900 dark:border-red-900 dark:bg-red-950/40 dark:text-red-200">
      <p className="font-medium">{message ?? t('account.loadFailed')}</p>
      <button type="button" onClick={retry} className={`${secondaryButtonClass} mt-4`}>
        {t('account.retry')}
      </button>
    </div>
  );
}

/**
 * An account page for a visitor it cannot show yet: "Loading" under its title while the session (or
 * `waiting`, the page's own first answer) is on its way, the sign-in prompt when signed out; null
 * once there is something to show.
 */
export function notSignedInYet({ session, title, signIn, waiting = false }: { session: { loaded: boolean; userInfo?: unknown }; title: string; signIn: string; waiting?: boolean }): ReactNode | null {
  if (!session.loaded || waiting) {
    return (
      <AccountPage title={title}>
        <Loading />
      </AccountPage>
    );
  }
  if (!session.userInfo) {
    return (
      <AccountPage title={title}>
        <SignInPrompt message={signIn} />
      </AccountPage>
    );
  }
  return null;
}

/** The parts every account page shares: waiting, signed out, failed (404: `notFound`). Renders `ready` with the data. */
export function Account<T>({
  remote,
  retry,
  signIn,
  notFound,
  ready,
}: {
  remote: Remote<T>;
  retry: () => void;
  signIn: string;
  notFound?: string;
  ready: (data: T) => ReactNode;
}) {
  if (remote.status === 'waiting') return <Loading />;
  if (remote.status === 'signed-out') return <SignInPrompt message={signIn} />;
  if (remote.status === 'failed') {
    const missing = remote.error instanceof ApiError && remote.error.status === 404;
    return missing && notFound ? <p className={cardClass}>{notFound}</p> : <LoadFailed retry={retry} />;
  }
  return ready(remote.data);
}

/**
 * Previous / page N of M / Next: links (?page=N of `path`), or buttons calling `onPage` for a list
 * that pages in place (a page whose other state must survive paging).
 */
export function Pager({ page, pages, ...to }: { page: number; pages: number } & ({ path: string } | { onPage: (page: number) => void })) {
  const { t } = usePageI18n();
  if (pages <= 1) return null;
  const step = 'inline-flex items-center gap-1 rounded-full px-3 py-1.5 text-sm font-semibold hover:bg-gray-100 dark:hover:bg-gray-800';
  const go = (target: number, children: ReactNode) =>
    'path' in to ? (
      <Link to={pageHref(to.path, target)} className={step}>
        {children}
      </Link>
    ) : (
      <button type="button" onClick={() => to.onPage(target)} className={step}>
        {children}
      </button>
    );
  return (
    <nav aria-label={t('pagination.label')} className="mt-4 flex items-center justify-between gap-2">
      {page > 1 ? (
        go(
          page - 1,
          <>
            <Icon name="chevronLeft" className="size-4" /> {t('paging.previous')}
          </>,
        )
      ) : (
        <span />
      )}
      <span className={`text-sm ${mutedClass}`}>{t('paging.page', { page, pages })}</span>
      {page < pages ? (
        go(
          page + 1,
          <>
            {t('paging.next')} <Icon name="chevronRight" className="size-4" />
          </>,
        )
      ) : (
        <span />
      )}
    </nav>
  );
}

const TONES = {
  green: 'bg-primary-50 text-primary-800 ring-primary-600/20 dark:bg-primary-950 dark:text-primary-300 dark:ring-primary-400/30',
  amber: 'bg-amber-50 text-amber-800 ring-amber-600/20 dark:bg-amber-950 dark:text-amber-300 dark:ring-amber-400/30',
  red: 'bg-red-50 text-red-800 ring-red-600/20 dark:bg-red-950 dark:text-red-300 dark:ring-red-400/30',
  gray: 'bg-gray-50 text-gray-700 ring-gray-500/20 dark:bg-gray-800 dark:text-gray-300 dark:ring-gray-400/30',
  blue: 'bg-sky-50 text-sky-800 ring-sky-600/20 dark:bg-sky-950 dark:text-sky-300 dark:ring-sky-400/30',
  violet: 'bg-violet-50 text-violet-800 ring-violet-600/20 dark:bg-violet-950 dark:text-violet-300 dark:ring-violet-400/30',
};
export type Tone = keyof typeof TONES;

export function Badge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${TONES[tone]}`}>{children}</span>;
}
