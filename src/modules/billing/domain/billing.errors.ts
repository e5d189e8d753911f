import { AppError } from 'src/platform/errors/app-error';

export class UnknownPackError extends AppError {
  readonly code = 'BILLING.UNKNOWN_PACK';
  readonly kind = 'validation';
  constructor() {
    super('There is no such credit pack.');
  }
}

/** Someone else's order answers exactly like a missing one. */
export class OrderNotFoundError extends AppError {
  readonly code = 'BILLING.ORDER_NOT_FOUND';
  readonly kind = 'not_found';
  constructor() {
    super('There is no such order.');
  }
}

export class InvalidWebhookError extends AppError {
  readonly code = 'BILLING.INVALID_WEBHOOK';
  readonly kind = 'validation';
  constructor(reason: string) {
    super(`Webhook refused: ${reason}`);
  }
}

/** An event about an order we cannot apply yet (a refund before the payment arrived): the gateway sends it again later. */
export class PaymentEventTooEarlyError extends AppError {
  readonly code = 'BILLING.EVENT_TOO_EARLY';
  readonly kind = 'unavailable';
  constructor() {
    super('This event cannot be applied yet; send it again later.');
  }
}

export class OrderNotPayableError extends AppError {
  readonly code = 'BILLING.NOT_PAYABLE';
  readonly kind = 'conflict';
  constructor() {
    super('This order can no longer be paid.');
  }
}

export class RefundNotPossibleError extends AppError {
  readonly code = 'BILLING.REFUND_NOT_POSSIBLE';
  readonly kind = 'conflict';
  constructor(reason: string) {
    super(reason);
  }
}

/** An admin refund's idempotency key was used before for another order or another amount. */
export class RefundKeyConflictError extends AppError {
  readonly code = 'BILLING.REFUND_KEY_REUSED';
  readonly kind = 'conflict';
  constructor() {
    super('This Idempotency-Key was used for a different refund; send a new key for a new refund.');
  }
}

/** The test checkout exists only while no Stripe key is configured. */
export class TestCheckoutUnavailableError extends AppError {
  readonly code = 'BILLING.TEST_CHECKOUT_OFF';
  readonly kind = 'not_found';
  constructor() {
    super('The test checkout is not available on this site.');
  }
}

export class PaymentGatewayError extends AppError {
  readonly code = 'BILLING.GATEWAY_UNAVAILABLE';
  readonly kind = 'unavailable';
  constructor() {
    super('The payment service is not answering; please try again in a moment.');
  }
}

/** The user has CHECKOUT_MAX_OPEN checkouts open: one of them is finished or canceled first (on /billing), or one expires. */
export class TooManyOpenCheckoutsError extends AppError {
  readonly code = 'BILLING.TOO_MANY_OPEN_CHECKOUTS';
  readonly kind = 'rate_limited';
  constructor(
    limit: number,
    readonly retryAfterSeconds: number,
  ) {
    super(`You have ${limit} unfinished checkouts. Finish or cancel one on your billing page, then try again.`);
  }
}
