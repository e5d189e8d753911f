import { Injectable } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import type { OrderView } from 'src/contracts/billing';
import { CreditLedger } from 'src/modules/credits';
import { orderLotRef, PAID_STATUSES, type Order } from '../domain/order';
import { selfRefundRefusal } from '../domain/self-refund';

/** The page size of the buyer's and the admins' order lists. */
export const ORDERS_PAGE_SIZE = 20;

export const pageCount = (total: number) => Math.max(1, Math.ceil(total / ORDERS_PAGE_SIZE));

/** Orders as the API shows them, with what their refunds and disputes could take back of the credits, and whether the buyer may refund them. */
@Injectable()
export class OrderViews {
  constructor(
    private readonly ledger: CreditLedger,
    private readonly config: AppConfig,
  ) {}

  async view(order: Order): Promise<OrderView> {
    return (await this.views([order]))[0]!;
  }

  async views(orders: Order[]): Promise<OrderView[]> {
    const [taken, refusals] = await Promise.all([this.takenBack(orders), Promise.all(orders.map((order) => this.selfRefundRefusal(order)))]);
    return orders.map((order, i) => {
      const refusal = refusals[i];
      return toOrderView(order, taken.get(order.id), refusal === undefined ? null : { allowed: refusal === null, reason: refusal });
    });
  }

  /** The credits actually taken back of each order's lot (a refund or dispute takes only what is unspent). */
  async takenBack(orders: Order[]): Promise<Map<string, number>> {
    const lots = await this.ledger.clawbacks(orders.filter((o) => o.creditsRevoked > 0).map((o) => orderLotRef(o.id)));
    return new Map(orders.map((o) => [o.id, lots.get(orderLotRef(o.id))?.taken ?? 0]));
  }

  /**
   * Why the buyer may not refund the order themself now (null: they may); undefined for an order
   * never paid. Reads its lot only when the rest of the rule holds.
   */
  async selfRefundRefusal(order: Order, now = new Date()): Promise<string | null | undefined> {
    if (!PAID_STATUSES.includes(order.status)) return undefined;
    const rule = this.config.payments.refundRule;
    const refusal = selfRefundRefusal(order, 0, rule, now);
    if (refusal) return refusal;
    const lot = (await this.ledger.lotActivity(orderLotRef(order.id)))?.lot;
    return selfRefundRefusal(order, lot ? lot.granted - lot.remaining : order.credits, rule, now);
  }
}

/** `creditsTakenBack`: what the ledger could take back of the order's lot (unknown: none). */
export function toOrderView(order: Order, creditsTakenBack = 0, selfRefund: OrderView['self_refund'] = null): OrderView {
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
    self_refund: selfRefund,
  };
}
