import { AppError } from 'src/platform/errors/app-error';

export class InvalidCredentialsError extends AppError {
  readonly code = 'AUTH.INVALID_CREDENTIALS';
  readonly kind = 'unauthorized';
  constructor() {
    super('Invalid email or password');
  }
}

/** 401 whose first error contains the address: the browser then opens the email verification page (spec section 8). */
export class UnconfirmedAccountError extends AppError {
  readonly code = 'AUTH.UNCONFIRMED';
  readonly kind = 'unauthorized';
  constructor(email: string) {
    super(`Please confirm your email address ${email} first: we sent you a link.`);
  }
}

export class InvalidLinkError extends AppError {
  readonly code = 'AUTH.INVALID_LINK';
  readonly kind = 'validation';
  constructor() {
    super('This link is invalid or has expired.');
  }
}

export class SignInRequiredError extends AppError {
  readonly code = 'AUTH.SIGN_IN_REQUIRED';
  readonly kind = 'unauthorized';
  constructor() {
    super('Please sign in.');
  }
}

export class TokenInUrlError extends AppError {
  readonly code = 'AUTH.TOKEN_IN_URL';
  readonly kind = 'validation';
  constructor() {
    super('Tokens are not accepted in the URL; send them in the Authorization header.');
  }
}

export class CrossSiteRequestError extends AppError {
  readonly code = 'AUTH.CROSS_SITE';
  readonly kind = 'forbidden';
  constructor() {
    super('This request must come from this site.');
  }
}

export class AdminRequiredError extends AppError {
  readonly code = 'AUTH.ADMIN_REQUIRED';
  readonly kind = 'forbidden';
  constructor() {
    super('This needs an administrator account.');
  }
}

export class LoginDisabledError extends AppError {
  readonly code = 'AUTH.DISABLED';
  readonly kind = 'not_found';
  constructor() {
    super('Accounts are not enabled on this site.');
  }
}

export class TooManyAttemptsError extends AppError {
  readonly code = 'AUTH.TOO_MANY_ATTEMPTS';
  readonly kind = 'rate_limited';
  constructor(readonly retryAfterSeconds: number) {
    super('Too many attempts, please try again later.');
  }
}

/**
 * The address's failed password checks this hour reached AUTH_SIGN_IN_FAILURES_PER_HOUR: no password
 * is checked (the right one neither) until the hour ends; the owner signs in with an emailed link.
 */
export class PasswordSignInPausedError extends AppError {
  readonly code = 'AUTH.PASSWORD_SIGN_IN_PAUSED';
  readonly kind = 'rate_limited';
  override readonly extra = { sign_in_link: true };
  constructor(readonly retryAfterSeconds: number) {
    super(
      'Too many wrong passwords were tried for this account in the last hour, so password sign-in is paused for it. We can email you a one-time sign-in link instead.',
    );
  }
}

/** Every password-hashing slot of this process is taken and its queue is full: try again in a moment. */
export class AuthBusyError extends AppError {
  readonly code = 'AUTH.BUSY';
  readonly kind = 'unavailable';
  constructor(readonly retryAfterSeconds: number) {
    super('We are very busy right now. Please try again in a moment.');
  }
}

/** Deleting the account or changing its password needs the password, or a sign-in within the last minutes (an emailed sign-in link). */
export class ReauthenticationRequiredError extends AppError {
  readonly code = 'AUTH.REAUTHENTICATION_REQUIRED';
  readonly kind = 'forbidden';
  constructor() {
    super('Enter your current password, or sign in again with an emailed sign-in link and try again within 15 minutes.');
  }
}
