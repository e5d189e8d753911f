import { INSUFFICIENT_CREDITS } from 'src/contracts/billing';
import { AppError } from 'src/platform/errors/app-error';

/**
 * 402: the browser opens a low-credit modal: the pack offer (Charge) for an account that has paid
 * before, the donation offer for one that never has. The messages are the spec's, word for word.
 */
export class InsufficientCreditsError extends AppError {
  readonly code = INSUFFICIENT_CREDITS;
  readonly kind = 'payment_required';
  override readonly extra: { balance: number; has_paid: boolean };
  constructor(balance: number, hasPaid: boolean) {
    super(hasPaid ? "You don't has enough credit!" : "You don't have enough credits");
    this.extra = { balance, has_paid: hasPaid };
  }
}

/** Credits and payments answer 404 while HAS_PAYMENT (or HAS_LOGIN) is off: as if they did not exist. */
export class PaymentsDisabledError extends AppError {
  readonly code = 'PAYMENTS.DISABLED';
  readonly kind = 'not_found';
  constructor() {
    super('Payments are not enabled on this site.');
  }
}

export class UnknownChargeError extends AppError {
  readonly code = 'CREDITS.UNKNOWN_CHARGE';
  readonly kind = 'not_found';
  constructor() {
    super('There is no charge with this key.');
  }
}

/** An idempotency key reused for a different charge (another user or amount): a caller's bug, never a replay. */
export class ChargeKeyConflictError extends AppError {
  readonly code = 'CREDITS.KEY_CONFLICT';
  readonly kind = 'conflict';
  constructor() {
    super('This idempotency key belongs to another charge.');
  }
}

export class UnknownAccountError extends AppError {
  readonly code = 'CREDITS.UNKNOWN_ACCOUNT';
  readonly kind = 'not_found';
  constructor() {
    super('There is no account with this email address.');
  }
}

/** An unsubscribe link that is not one of ours (forged, altered, or signed with another AUTH_SECRET). */
export class InvalidUnsubscribeLinkError extends AppError {
  readonly code = 'CREDITS.INVALID_UNSUBSCRIBE_LINK';
  readonly kind = 'validation';
  constructor() {
    super('This unsubscribe link is not valid. Sign in and change your mail settings on your account page.');
  }
}
