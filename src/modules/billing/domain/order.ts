import { creditsForRefundedCents, type OrderStatus } from 'src/contracts/billing';

/** A purchase of credits: a pack or a donation. Amounts in US cents; the credits come from our price table. */
export class Order {
  id!: string;
  /** Shown to people: ORD-XXXXXXXX. */
  number!: string;
  userId!: string;
  kind!: 'pack' | 'donation';
  /** The pack bought (null for a donation). */
  packId!: string | null;
  description!: string;
  credits!: number;
  validityDays!: number;
  amountCents!: number;
  /** Cumulative, as the gateway reports it. */
  refundedCents!: number;
  /** Credits of the order's lot to take back in all (refund shares, a dispute); the ledger says how many it could. */
  creditsRevoked!: number;
  /** The success page's look-ups at the gateway so far (a few, spaced out: the webhook is the news). */
  gatewayLookups!: number;
  /** When a dispute of it was decided in our favour (its credits came back). */
  disputeWonAt!: Date | null;
  /** Refunds that failed after they were counted (their credits came back). */
  refundFailedCents!: number;
  status!: OrderStatus;
  gateway!: 'stripe' | 'local';
  /** The gateway's checkout session: the key fulfilment goes by. */
  gatewaySessionId!: string | null;
  /** The gateway's payment (Stripe's payment intent): refunds and disputes name it. */
  gatewayPaymentRef!: string | null;
  paymentMethod!: string | null;
  /** Stripe's hosted invoice of the payment, when Checkout created one. */
  invoiceUrl!: string | null;
  createdAt!: Date;
  paidAt!: Date | null;
  updatedAt!: Date;
}

/** The source reference of the credit lot an order grants: one lot per order, ever. */
export const orderLotRef = (orderId: string) => `order:${orderId}`;

/** Statuses whose money was received: refunds and disputes apply to these. */
export const PAID_STATUSES: readonly OrderStatus[] = ['paid', 'partially_refunded', 'refunded', 'disputed'];

/**
 * How many of the order's credits a cumulative refund of `refundedCents` takes back in all: the
 * refunded share of the credits, rounded up so a full refund takes every credit.
 */
export function creditsForRefund(order: Pick<Order, 'credits' | 'amountCents'>, refundedCents: number): number {
  return creditsForRefundedCents(order, refundedCents);
}

/** The status a paid order has after a cumulative refund of `refundedCents`, a dispute aside (a won dispute, a failed refund). */
export function statusOfPaid(order: Pick<Order, 'amountCents'>, refundedCents: number): OrderStatus {
  if (refundedCents <= 0) return 'paid';
  return refundedCents >= order.amountCents ? 'refunded' : 'partially_refunded';
}

/** The status after a cumulative refund (a disputed order stays disputed). */
export function statusAfterRefund(order: Pick<Order, 'status' | 'amountCents'>, refundedCents: number): OrderStatus {
  if (order.status === 'disputed') return 'disputed';
  if (refundedCents <= 0) return order.status;
  return refundedCents >= order.amountCents ? 'refunded' : 'partially_refunded';
}
