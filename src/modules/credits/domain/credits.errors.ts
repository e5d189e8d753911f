import { INSUFFICIENT_CREDITS } from 'src/contracts/billing';
import { AppError } from 'src/platform/errors/app-error';

/** 402: the browser opens a low-credit modal (the charge one when `had_credits`, else the donation one). */
export class InsufficientCreditsError extends AppError {
  readonly code = INSUFFICIENT_CREDITS;
  readonly kind = 'payment_required';
  override readonly extra: { balance: number; had_credits: boolean };
  constructor(balance: number, hadCredits: boolean) {
    super(hadCredits ? "You don't have enough credit!" : "You don't have enough credits");
    this.extra = { balance, had_credits: hadCredits };
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
