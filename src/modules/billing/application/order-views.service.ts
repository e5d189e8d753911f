import { Injectable } from '@nestjs/common';
import type { OrderView } from 'src/contracts/billing';
import { CreditLedger } from 'src/modules/credits';
import { orderLotRef, type Order } from '../domain/order';

/** The page size of the buyer's and the admins' order lists. */
export const ORDERS_PAGE_SIZE = 20;

export const pageCount = (total: number) => Math.max(1, Math.ceil(total / ORDERS_PAGE_SIZE));

/** Orders as the API shows them, with what their refunds and disputes could take back of the credits. */
@Injectable()
export class OrderViews {
  constructor(private readonly ledger: CreditLedger) {}

  async view(order: Order): Promise<OrderView> {
    return toOrderView(order, (await this.takenBack([order])).get(order.id));
  }

  /** The credits actually taken back of each order's lot (a refund or dispute takes only what is unspent). */
  async takenBack(orders: Order[]): Promise<Map<string, number>> {
    const lots = await this.ledger.clawbacks(orders.filter((o) => o.creditsRevoked > 0).map((o) => orderLotRef(o.id)));
    return new Map(orders.map((o) => [o.id, lots.get(orderLotRef(o.id))?.taken ?? 0]));
  }
}

/** `creditsTakenBack`: what the ledger could take back of the order's lot (unknown: none). */
export function toOrderView(order: Order, creditsTakenBack = 0): OrderView {
  return {
    id: order.id,
    number: order.number,
    kind: order.kind,
    description: order.description,
    amount_cents: order.amountCents,
    refunded_cents: order.refundedCents,
    currency: 'usd',
    status: order.status,
    credits: order.credits,
    payment_method: order.paymentMethod,
    test: order.gateway === 'local',
    created_at: order.createdAt.toISOString(),
    paid_at: order.paidAt?.toISOString() ?? null,
    credits_to_take_back: order.creditsRevoked,
    credits_taken_back: creditsTakenBack,
    refund_failed_cents: order.refundFailedCents,
    dispute_won_at: order.disputeWonAt?.toISOString() ?? null,
  };
}
