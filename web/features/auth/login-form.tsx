// First: zod must be jitless before any schema is built (see the module).
import 'web/lib/zod-jitless';
import { useState } from 'react';
import { signInSchema } from 'src/contracts/auth.schema';
import { buttonClass, Field, inputClass, linkClass, useValidatedForm } from 'web/features/auth/auth-form';
import { useAccountI18n } from 'web/i18n/account-messages';
import { ApiError, apiRequest } from 'web/lib/api';
import { useSiteConfig } from 'web/lib/root-data';
import { Link, useLocation, useNavigate } from 'web/lib/router/router';
import { signedIn, takeToken, type UserInfo } from 'web/lib/session';
import { notify } from 'web/lib/toasts';

const EMAIL_IN_TEXT = /[^\s@:,;]+@[^\s@:,;]+\.[A-Za-z]{2,}/;

/**
 * The login form, on its page and in the modal: optional Google button, the divider 'sign in with
 * email', email and password, the sign-in button, links to forgot password and sign up, and the
 * spam line. Each method shows only when its setting is on. A sign-in returns home (spec), unless
 * the modal was opened by a page that continues by itself (`onSignedIn`: pricing's Buy, say).
 */
export function LoginForm({ onDone, onSignedIn }: { onDone?: () => void; onSignedIn?: () => void }) {
  const { t } = useAccountI18n();
  const navigate = useNavigate();
  const { settings } = useSiteConfig();
  const { pathname, search } = useLocation();
  const form = useValidatedForm(signInSchema, { email: '', password: '' });
  // Password sign-in is paused for this address (too many wrong passwords this hour): offer a mailed link.
  const [linkOffer, setLinkOffer] = useState(false);
  const [linkBusy, setLinkBusy] = useState(false);
  const sendLink = async () => {
    setLinkBusy(true);
    try {
      await apiRequest(t, 'POST', '/auth/sign_in_link', { email: form.values.email });
      notify(t('auth.linkSent'));
    } catch (error) {
      if (error instanceof ApiError) notify(error.message, 'error');
    } finally {
      setLinkBusy(false);
    }
  };

  const submit = form.onSubmit(
    async () => {
      const response = await apiRequest<UserInfo>(t, 'POST', '/auth/sign_in', form.values);
      takeToken(response.headers);
      signedIn(response.data);
      notify(t('auth.loginSuccess'));
      onDone?.();
      if (onSignedIn) onSignedIn();
      else void navigate('/');
    },
    (error) => {
      if (error.code === 'AUTH.PASSWORD_SIGN_IN_PAUSED') {
        setLinkOffer(true);
        return true;
      }
      // An unconfirmed account: its first error names the address (spec section 8).
      const email = error.status === 401 ? EMAIL_IN_TEXT.exec(error.errors[0] ?? '')?.[0] : undefined;
      if (!email) return false;
      onDone?.();
      void navigate(`/auth/email_verifications?${new URLSearchParams({ email, type: 'account_confirm' })}`);
      return true;
    },
  );

  const origin = pathname.startsWith('/auth') ? '/' : pathname + search;
  return (
    <div className="space-y-5">
      {settings.google_oauth_login && (
        <a href={`/auth/google_oauth2?origin=${encodeURIComponent(origin)}`} className="inline-flex w-full items-center justify-center gap-2 rounded-full border border-gray-300 px-5 py-2.5 font-semibold hover:bg-gray-50 dark:border-gray-700 dark:hover:bg-gray-800">
          {t('auth.google')}
        </a>
      )}
      {settings.google_oauth_login && settings.email_login && (
        <p className="flex items-center gap-3 text-xs uppercase tracking-wide text-gray-500 before:h-px before:flex-1 before:bg-gray-200 after:h-px after:flex-1 after:bg-gray-200 dark:before:bg-gray-800 dark:after:bg-gray-800">
          {t('auth.divider')}
        </p>
      )}
      {settings.email_login && (
        <form noValidate onSubmit={submit} className="space-y-4">
          <Field id="email" label={t('auth.email')} error={form.errors.email}>
            <input id="email" type="email" required maxLength={256} autoComplete="email" className={inputClass} {...form.field('email')} />
          </Field>
          <Field id="password" label={t('auth.password')} error={form.errors.password}>
            <input id="password" type="password" required autoComplete="current-password" className={inputClass} {...form.field('password')} />
          </Field>
          <button type="submit" disabled={form.busy} className={buttonClass}>
            {t('auth.signIn')}
          </button>
          {linkOffer && (
            <div role="alert" className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-100" data-testid="sign-in-link-offer">
              <p>{t('auth.linkOffer')}</p>
              <button type="button" onClick={() => void sendLink()} disabled={linkBusy} className={`${buttonClass} mt-3`}>
                {t('auth.linkButton')}
              </button>
            </div>
          )}
          <p className="flex justify-between text-sm">
            <Link to="/auth/forgot_password" className={linkClass} onClick={onDone}>
              {t('auth.forgotLink')}
            </Link>
            <Link to="/auth/signup" className={linkClass} onClick={onDone}>
              {t('auth.signUpLink')}
            </Link>
          </p>
        </form>
      )}
      <p className="text-sm text-gray-600 dark:text-gray-400">{t('auth.spamNote')}</p>
    </div>
  );
}
