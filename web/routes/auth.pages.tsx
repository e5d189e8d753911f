// First: zod must be jitless before any schema is built (see the module).
import 'web/lib/zod-jitless';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { z } from 'zod';
import { emailOnlySchema, newPasswordSchema, signInSchema, signUpSchema } from 'src/contracts/auth.schema';
import { Seo } from 'web/components/seo';
import { usePageI18n } from 'web/i18n/page-messages';
import { ApiError, apiRequest } from 'web/lib/api';
import { useSiteConfig } from 'web/lib/root-data';
import { Link, useLocation, useNavigate } from 'web/lib/router/router';
import { signedIn, takeToken, type UserInfo } from 'web/lib/session';
import { notify } from 'web/lib/toasts';

/** Form validation waits this long after the last keystroke (spec: 300 ms). */
const VALIDATION_DEBOUNCE_MS = 300;

type Fields = Record<string, string>;

/**
 * Field errors from the shared zod schema (the server checks the same rules), shown 300 ms after
 * the visitor stops typing, and all at once on submit.
 */
function useValidatedForm(schema: z.ZodType, initial: Fields) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Fields>({});
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const check = (next: Fields, only?: Record<string, boolean>) => {
    const parsed = schema.safeParse(next);
    const found: Fields = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '');
        if (!(field in found) && (!only || only[field])) found[field] = issue.message;
      }
    }
    setErrors(found);
    return parsed.success;
  };

  useEffect(() => () => clearTimeout(timer.current), []);

  return {
    values,
    errors,
    field(name: string) {
      return {
        name,
        value: values[name] ?? '',
        'aria-invalid': errors[name] ? true : undefined,
        'aria-describedby': errors[name] ? `${name}-error` : undefined,
        onChange: (event: { target: { value: string } }) => {
          const next = { ...values, [name]: event.target.value };
          const nextTouched = { ...touched, [name]: true };
          setValues(next);
          setTouched(nextTouched);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => check(next, nextTouched), VALIDATION_DEBOUNCE_MS);
        },
      };
    },
    busy,
    /**
     * The form's submit handler: validates everything, then runs `send` (the button stays disabled
     * meanwhile). The server's errors show in a red toast unless `onError` handled them.
     */
    onSubmit(send: () => Promise<void>, onError?: (error: ApiError) => boolean) {
      return async (event: FormEvent) => {
        event.preventDefault();
        clearTimeout(timer.current);
        if (!check(values)) return;
        setBusy(true);
        try {
          await send();
        } catch (error) {
          if (error instanceof ApiError && !onError?.(error)) notify(error.message, 'error');
        } finally {
          setBusy(false);
        }
      };
    },
  };
}

const inputClass =
  'mt-1 block w-full rounded-xl border border-gray-300 bg-white px-3.5 py-2.5 text-base shadow-sm outline-none focus:border-primary-500 focus:ring-2 focus:ring-primary-500/30 aria-invalid:border-red-500 dark:border-gray-700 dark:bg-gray-900';
const buttonClass =
  'inline-flex w-full items-center justify-center rounded-full bg-primary-700 px-5 py-2.5 font-semibold text-white shadow-sm transition hover:bg-primary-800 disabled:opacity-60 dark:bg-primary-500 dark:text-gray-950 dark:hover:bg-primary-400';
const linkClass = 'font-medium text-primary-700 hover:underline dark:text-primary-400';

function Field({ label, error, id, children }: { label: string; error?: string; id: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-md px-4 py-12 sm:py-16">
      <Seo title={title} noindex />
      <div className="rounded-3xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8 dark:border-gray-800 dark:bg-gray-900/60">
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        <div className="mt-6">{children}</div>
      </div>
    </main>
  );
}

/** A new password and its confirmation (sign-up, password reset). */
function NewPasswordFields({ form, label, confirmLabel }: { form: ReturnType<typeof useValidatedForm>; label: string; confirmLabel: string }) {
  return (
    <>
      <Field id="password" label={label} error={form.errors.password}>
        <input id="password" type="password" required minLength={8} autoComplete="new-password" className={inputClass} {...form.field('password')} />
      </Field>
      <Field id="password_confirmation" label={confirmLabel} error={form.errors.password_confirmation}>
        <input id="password_confirmation" type="password" required autoComplete="new-password" className={inputClass} {...form.field('password_confirmation')} />
      </Field>
    </>
  );
}

const EMAIL_IN_TEXT = /[^\s@:,;]+@[^\s@:,;]+\.[A-Za-z]{2,}/;

/**
 * The login form, on its page and in the modal: optional Google button, the divider 'sign in with
 * email', email and password, the sign-in button, links to forgot password and sign up, and the
 * spam line. Each method shows only when its setting is on. A sign-in returns home (spec), unless
 * the modal was opened by a page that continues by itself (`onSignedIn`: pricing's Buy, say).
 */
export function LoginForm({ onDone, onSignedIn }: { onDone?: () => void; onSignedIn?: () => void }) {
  const { t } = usePageI18n();
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

export function LoginPage() {
  const { t } = usePageI18n();
  const { search } = useLocation();
  const failed = new URLSearchParams(search).get('error') === 'google';
  return (
    <AuthCard title={t('auth.loginTitle')}>
      {failed && <p role="alert" className="mb-4 rounded-xl bg-red-50 p-3 text-sm text-red-700 dark:bg-red-950/40 dark:text-red-300">{t('auth.googleFailed')}</p>}
      <LoginForm />
    </AuthCard>
  );
}

export function SignUpPage() {
  const { t } = usePageI18n();
  const { trialCredits } = useSiteConfig();
  const navigate = useNavigate();
  const form = useValidatedForm(signUpSchema, { email: '', password: '', password_confirmation: '' });
  const submit = form.onSubmit(async () => {
    await apiRequest(t, 'POST', '/auth/sign_up', form.values);
    void navigate(`/auth/email_verifications?${new URLSearchParams({ email: form.values.email!.trim(), type: 'account_confirm' })}`);
  });

  return (
    <AuthCard title={t('auth.signUpTitle')}>
      {trialCredits > 0 && (
        <p className="mb-5 rounded-2xl bg-primary-50 px-4 py-3 text-sm text-primary-900 dark:bg-primary-950/50 dark:text-primary-100" data-testid="trial-offer">
          <strong>{t('auth.trialTitle')}</strong> {t('auth.trialText', { credits: trialCredits })}
        </p>
      )}
      <form noValidate onSubmit={submit} className="space-y-4">
        <Field id="email" label={t('auth.email')} error={form.errors.email}>
          <input id="email" type="email" required maxLength={256} autoComplete="email" className={inputClass} {...form.field('email')} />
        </Field>
        <NewPasswordFields form={form} label={t('auth.passwordMin')} confirmLabel={t('auth.passwordConfirm')} />
        <button type="submit" disabled={form.busy} className={buttonClass}>
          {t('auth.signUp')}
        </button>
        <p className="text-sm">
          {t('auth.haveAccount')}{' '}
          <Link to="/auth/login" className={linkClass}>
            {t('auth.signIn')}
          </Link>
        </p>
      </form>
    </AuthCard>
  );
}

/** After sign-up (or an unconfirmed sign-in): where the link went, and the Resend button. */
export function EmailVerificationPage() {
  const { t } = usePageI18n();
  const { search } = useLocation();
  const email = new URLSearchParams(search).get('email')?.slice(0, 256) ?? '';
  const [busy, setBusy] = useState(false);
  const resend = async () => {
    setBusy(true);
    try {
      await apiRequest(t, 'POST', '/auth/confirmation', { email });
      notify(t('auth.resent'));
    } catch (error) {
      if (error instanceof ApiError) notify(error.message, 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthCard title={t('auth.verifyTitle')}>
      <p className="text-gray-700 dark:text-gray-300">{email ? t('auth.verifySent', { email }) : t('auth.verifySentNoEmail')}</p>
      <p className="mt-3 text-sm text-gray-600 dark:text-gray-400">{t('auth.verifyHelp')}</p>
      {email && (
        <button type="button" onClick={resend} disabled={busy} className={`${buttonClass} mt-6`}>
          {t('auth.resend')}
        </button>
      )}
    </AuthCard>
  );
}

/** The token of an emailed link: after '#', so it never reaches the server's logs. */
const tokenFromHash = () => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';

/** Opened from the confirmation email: confirms once, then offers to sign in. */
export function ConfirmPage() {
  const { t } = usePageI18n();
  const [result, setResult] = useState<'pending' | 'done' | 'failed'>('pending');
  useEffect(() => {
    let live = true;
    const token = tokenFromHash();
    // A link without its token (cut off when copied) cannot confirm anything: say so without asking the server.
    const confirmed = token ? apiRequest(t, 'POST', '/auth/confirm', { token }) : Promise.reject(new Error('no token'));
    confirmed.then(
      () => live && setResult('done'),
      () => live && setResult('failed'),
    );
    return () => {
      live = false;
    };
  }, [t]);
  return (
    <AuthCard title={t('auth.confirmTitle')}>
      <p role="status" className="text-gray-700 dark:text-gray-300">
        {result === 'pending' ? t('auth.confirming') : result === 'done' ? t('auth.confirmed') : t('auth.invalidLink')}
      </p>
      {result === 'done' && (
        <Link to="/auth/login" className={`${buttonClass} mt-6`}>
          {t('auth.signIn')}
        </Link>
      )}
    </AuthCard>
  );
}

/** Opened from a sign-in link email: signs in once, then goes home. */
export function SignInLinkPage() {
  const { t } = usePageI18n();
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    const token = tokenFromHash();
    const signIn = token ? apiRequest<UserInfo>(t, 'POST', '/auth/sign_in_with_link', { token }) : Promise.reject(new Error('no token'));
    signIn.then(
      (response) => {
        if (!live) return;
        takeToken(response.headers);
        signedIn(response.data);
        notify(t('auth.loginSuccess'));
        void navigate('/');
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [t, navigate]);
  return (
    <AuthCard title={t('auth.linkTitle')}>
      <p role="status" className="text-gray-700 dark:text-gray-300">
        {failed ? t('auth.invalidLink') : t('auth.linkSigningIn')}
      </p>
      {failed && (
        <Link to="/auth/login" className={`${buttonClass} mt-6`}>
          {t('auth.signIn')}
        </Link>
      )}
    </AuthCard>
  );
}

export function ForgotPasswordPage() {
  const { t } = usePageI18n();
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

export function PasswordResetPage() {
  const { t } = usePageI18n();
  const navigate = useNavigate();
  const form = useValidatedForm(newPasswordSchema, { password: '', password_confirmation: '' });
  const submit = form.onSubmit(async () => {
    await apiRequest(t, 'PUT', '/auth/password', { ...form.values, token: tokenFromHash() });
    notify(t('auth.passwordChanged'));
    void navigate('/auth/login');
  });
  return (
    <AuthCard title={t('auth.resetTitle')}>
      <form noValidate onSubmit={submit} className="space-y-4">
        <NewPasswordFields form={form} label={t('auth.newPassword')} confirmLabel={t('auth.passwordConfirm')} />
        <button type="submit" disabled={form.busy} className={buttonClass}>
          {t('auth.setPassword')}
        </button>
      </form>
    </AuthCard>
  );
}
