import type { Order } from './order';

/**
 * What a payment gateway tells us, whatever the gateway: Stripe's webhook events and the local test
 * checkout's buttons both become these, and one fulfilment code applies them.
 */
export type PaymentUpdate =
  /** The money is in: the order is fulfilled once (its lot granted). Amounts in cents. */
  | { type: 'paid'; sessionId: string; amountPaidCents: number; currency: string; paymentRef: string | null; paymentMethod: string | null; invoiceUrl?: string | null }
  /** A delayed payment method failed, or the buyer cancelled the test checkout. */
  | { type: 'failed'; sessionId: string }
  | { type: 'canceled'; sessionId: string }
  /** The checkout session expired unpaid. */
  | { type: 'expired'; sessionId: string }
  /** Refunds of the payment, cumulative (not the latest refund alone). */
  | { type: 'refunded'; paymentRef: string; refundedCents: number }
  | { type: 'disputed'; paymentRef: string }
  /** A dispute closed in our favour: the credits it took back return. `disputeId`: the same fact from another event applies once. */
  | { type: 'dispute_won'; paymentRef: string; disputeId: string }
  /** A refund counted before failed at the bank: its share of the credits returns, once per `refundId`. */
  | { type: 'refund_failed'; paymentRef: string; refundId: string; amountCents: number };

/**
 * A webhook event: its id (each applies once), the gateway's type, and what it means for us (null:
 * nothing). `problem`: why a signed event is refused unapplied (it does not read as its type says,
 * or it is of the other mode, live or test); it is acknowledged, so the gateway does not retry it.
 */
export interface GatewayEvent {
  id: string;
  type: string;
  update: PaymentUpdate | null;
  problem?: string;
}

export interface CheckoutRequest {
  order: Order;
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
}

/** Takes payments: Stripe Checkout, or the local test checkout when no Stripe key is set. */
export abstract class PaymentGateway {
  abstract readonly kind: 'stripe' | 'local';

  /** Starts paying for an order; the browser goes to `url`. */
  abstract createCheckout(request: CheckoutRequest): Promise<{ sessionId: string; url: string }>;

  /**
   * Verifies and reads a webhook delivery (the raw body and its signature header). Throws
   * InvalidWebhookError when the signature is missing, wrong, or dated outside the tolerance; a
   * signed event it cannot read comes back with a `problem`, never as an exception.
   */
  abstract parseWebhook(rawBody: Buffer, signature: string | undefined): Promise<GatewayEvent>;

  /** Asks the gateway for the state of a checkout session (the success page may beat the webhook). */
  abstract lookup(sessionId: string): Promise<PaymentUpdate | null>;

  /** Where the buyer goes to finish paying a pending order; null when its checkout can no longer be paid. */
  abstract resumeUrl(order: Order): Promise<string | null>;

  /** Closes a pending order's checkout so it can no longer be paid (the buyer cancelled it). */
  abstract cancel(order: Order): Promise<void>;

  /**
   * Refunds `amountCents` of a paid order; resolves with the payment's cumulative refunded amount.
   * The same `idempotencyKey` again (a retry after a lost answer) refunds nothing more.
   */
  abstract refund(order: Order, amountCents: number, idempotencyKey: string): Promise<{ refundedCents: number }>;
}
