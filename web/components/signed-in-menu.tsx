import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useI18n } from 'web/i18n/i18n';
import { ApiError, apiRequest } from 'web/lib/api';
import { clearCredits, creditsLabel, creditsStore, refreshCredits } from 'web/lib/credits';
import { useSiteConfig } from 'web/lib/root-data';
import { Link, useLocation } from 'web/lib/router/router';
import { signedOut, type UserInfo } from 'web/lib/session';
import { notify } from 'web/lib/toasts';
import { Icon } from './icons';

const menuLinkClass = 'block w-full rounded-lg px-3 py-2 text-left text-sm font-medium hover:bg-gray-100 dark:hover:bg-gray-700';

/**
 * The header's corner for a signed-in user: the credit balance (with has_payment) and the menu
 * (email, the image tool, Billing and Usage, the ops screens for admins, sign out). A chunk of its
 * own, loaded once someone is signed in: most visitors never download it.
 */
export function SignedInMenu({ user }: { user: UserInfo }) {
  const { settings } = useSiteConfig();
  const { t, tag } = useI18n();
  const { pathname } = useLocation();
  const credits = useSyncExternalStore(creditsStore.subscribe, creditsStore.get, creditsStore.serverGet);
  const menu = useRef<HTMLDivElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  // The menu is open for the page it was opened on, so a navigation closes it.
  const [menuOpenOn, setMenuOpenOn] = useState<string>();
  const menuOpen = menuOpenOn === pathname;
  const setMenuOpen = (next: boolean) => setMenuOpenOn(next ? pathname : undefined);

  // The balance follows whoever is signed in, and is forgotten at sign-out (this menu unmounts).
  useEffect(() => {
    if (settings.has_payment) void refreshCredits();
    return clearCredits;
  }, [user.email, settings.has_payment]);

  // Escape and a click outside close the menu; Escape returns focus to its button.
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpenOn(undefined);
      menuButton.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node)) setMenuOpenOn(undefined);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [menuOpen]);

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
  const closeMenu = () => setMenuOpen(false);
  const balance = settings.has_payment && credits.view ? creditsLabel(t, credits.view.balance, tag) : undefined;
  return (
    <div className="flex shrink-0 items-center gap-1 sm:gap-1.5">
      {settings.has_payment && !credits.view && !credits.failed && <span aria-busy="true" />}
      {balance && (
        // The number alone on phones (compact), where the header is full; the words from the sm breakpoint.
        <Link
          to="/usage"
          aria-label={t('account.balanceLabel', { credits: balance })}
          title={t('account.balanceLabel', { credits: balance })}
          data-testid="header-balance"
          className="inline-flex h-7 items-center gap-0.5 rounded-full bg-primary-50 px-1 text-xs sm:gap-1 sm:px-2 font-semibold text-primary-800 tabular-nums ring-1 ring-primary-600/20 ring-inset hover:bg-primary-100 dark:bg-primary-950 dark:text-primary-300 dark:ring-primary-400/30 dark:hover:bg-primary-900"
        >
          <Icon name="coins" className="size-3.5 shrink-0" />
          {/* Compact on phones ("1.2K"): the row keeps room for the search box's placeholder. */}
          <span className="sm:hidden">{credits.view!.balance.toLocaleString(tag, { notation: 'compact', maximumFractionDigits: 1 })}</span>
          <span className="hidden sm:inline">{balance}</span>
        </Link>
      )}
      <div ref={menu} className="relative">
        <button
          ref={menuButton}
          type="button"
          aria-label={t('account.menu')}
          aria-expanded={menuOpen}
          aria-controls="account-menu"
          onClick={() => setMenuOpen(!menuOpen)}
          className="flex size-8 items-center justify-center rounded-full bg-primary-700 sm:size-9 text-sm font-bold text-white uppercase dark:bg-primary-500 dark:text-gray-950"
        >
          {user.email.slice(0, 1)}
        </button>
        {menuOpen && (
          // Below the header on phones (never over its search box), under the button from the sm breakpoint.
          <div
            id="account-menu"
            className="fixed inset-x-3 top-16 z-50 rounded-2xl border border-gray-200 bg-white p-2 shadow-lg sm:absolute sm:inset-x-auto sm:top-auto sm:right-0 sm:mt-2 sm:w-64 dark:border-gray-600 dark:bg-gray-800"
          >
            <div className="px-3 py-2">
              <p className="truncate text-sm text-gray-600 dark:text-gray-400" data-testid="account-email">
                {user.email}
              </p>
              {balance && (
                <p className="mt-0.5 text-sm font-semibold text-primary-700 dark:text-primary-400" data-testid="account-balance">
                  {balance}
                </p>
              )}
            </div>
            {settings.has_payment && (
              <>
                <Link to="/tools/image" onClick={closeMenu} className={menuLinkClass}>
                  {t('menu.imageTool')}
                </Link>
                <Link to="/billing" onClick={closeMenu} className={menuLinkClass}>
                  {t('account.billing')}
                </Link>
                <Link to="/usage" onClick={closeMenu} className={menuLinkClass}>
                  {t('account.usage')}
                </Link>
                <hr className="my-1 border-gray-200 dark:border-gray-700" />
              </>
            )}
            <Link to="/account" onClick={closeMenu} className={menuLinkClass}>
              {t('account.settings')}
            </Link>
            <hr className="my-1 border-gray-200 dark:border-gray-700" />
            {user.admin && (
              <>
                <Link to="/admin" onClick={closeMenu} className={menuLinkClass}>
                  {t('account.admin')}
                </Link>
                <hr className="my-1 border-gray-200 dark:border-gray-700" />
              </>
            )}
            <button type="button" onClick={signOut} className={menuLinkClass}>
              {t('account.signOut')}
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
