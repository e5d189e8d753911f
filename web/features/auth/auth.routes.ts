import { definePage } from 'web/lib/router/page';
import accountPageLoader from 'web/features/auth/account-page.loader';
import accountLoader from 'web/features/auth/account.loader';

/** The account pages: never cached; signed in, they send you home (web/components/account-menu.tsx). */

export const authLogin = definePage({
  id: 'auth-login',
  path: '/auth/login',
  page: () => import('web/features/auth/login.page'),
  loader: accountPageLoader,
});

export const authSignUp = definePage({
  id: 'auth-signup',
  path: '/auth/signup',
  page: () => import('web/features/auth/sign-up.page'),
  loader: accountPageLoader,
});

export const authEmailVerifications = definePage({
  id: 'auth-email-verifications',
  path: '/auth/email_verifications',
  page: () => import('web/features/auth/email-verification.page'),
  loader: accountPageLoader,
});

export const authConfirm = definePage({
  id: 'auth-confirm',
  path: '/auth/confirm',
  page: () => import('web/features/auth/confirm.page'),
  loader: accountPageLoader,
});

export const authSignInLink = definePage({
  id: 'auth-sign-in-link',
  path: '/auth/sign_in_link',
  page: () => import('web/features/auth/sign-in-link.page'),
  loader: accountPageLoader,
});

export const authForgotPassword = definePage({
  id: 'auth-forgot-password',
  path: '/auth/forgot_password',
  page: () => import('web/features/auth/forgot-password.page'),
  loader: accountPageLoader,
});

export const authPasswordReset = definePage({
  id: 'auth-password-reset',
  path: '/auth/password_reset',
  page: () => import('web/features/auth/password-reset.page'),
  loader: accountPageLoader,
});

/** The signed-in account's own page (its data loads in the browser), and the reminder mails' unsubscribe page. */
export const account = definePage({
  id: 'account',
  path: '/account',
  page: () => import('web/features/auth/account.page'),
  loader: accountLoader,
  cache: true,
});

export const accountUnsubscribe = definePage({
  id: 'account-unsubscribe',
  path: '/account/unsubscribe',
  page: () => import('web/features/auth/unsubscribe.page'),
  loader: accountLoader,
  cache: true,
});
