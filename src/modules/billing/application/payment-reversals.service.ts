import { Injectable, Logger } from '@nestjs/common';
import { CreditLedger } from 'src/modules/credits';
import { PaymentEventTooEarlyError } from '../domain/billing.errors';
import { creditsForRefund, orderLotRef, PAID_STATUSES, statusAfterRefund, statusOfPaid, type Order } from '../domain/order';
import { OrderRepository } from '../domain/order-repository.port';
import type { PaymentUpdate } from '../domain/payment-gateway.port';

/**
 * What a refund, a dispute, a dispute won and a failed refund do to a paid order and its credits.
 * Called by PaymentEventsService.applyUpdate only, inside its transaction and with the event recorded.
 */
@Injectable()
export class PaymentReversalsService {
  private readonly logger = new Logger('Billing');

  constructor(
    private readonly orders: OrderRepository,
    private readonly ledger: CreditLedger,
  ) {}

  async takeBackRefund(paymentRef: string, refundedCents: number, adminId?: string): Promise<'applied' | 'ignored'> {
    const order = await this.paidOrderOf(paymentRef);
    // Cumulative amounts: an older or repeated figure changes nothing.
    if (refundedCents <= order.refundedCents) return 'ignored';
    const refunded = Math.min(refundedCents, order.amountCents);
    const target = Math.max(creditsForRefund(order, refunded), order.creditsRevoked);
    const back = await this.ledger.clawBack(orderLotRef(order.id), target, `Refund of ${order.number}`, adminId);
    await this.orders.update(order.id, { refundedCents: refunded, creditsRevoked: target, status: statusAfterRefund(order, refunded) });
    this.logger.log(`Order ${order.id}: ${refunded} cents refunded in all; ${back?.taken ?? 0} of ${target} credits taken back in all`);
    return 'applied';
  }

  async takeBackDispute(paymentRef: string): Promise<'applied' | 'ignored'> {
    const order = await this.paidOrderOf(paymentRef);
    if (order.status === 'disputed') return 'ignored';
    const back = await this.ledger.clawBack(orderLotRef(order.id), order.credits, `Payment disputed: ${order.number}`);
    await this.orders.update(order.id, { status: 'disputed', creditsRevoked: order.credits });
    this.logger.warn(`Order ${order.id} disputed: ${back?.taken ?? 0} of ${order.credits} credits taken back`);
    return 'applied';
  }

  /** A dispute decided for us: the order is as its refunds left it, and the credits the dispute took come back. Once per dispute. */
  async restoreDispute(paymentRef: string, disputeId: string): Promise<'applied' | 'ignored'> {
    const order = await this.paidOrderOf(paymentRef);
    if (order.status !== 'disputed' || !(await this.orders.recordEvent(`fact:dispute_won:${disputeId}`, 'dispute_won'))) return 'ignored';
    const target = creditsForRefund(order, order.refundedCents);
    const back = await this.ledger.clawBack(orderLotRef(order.id), target, `Dispute of ${order.number} closed, the payment stands: credits given back`);
    await this.orders.update(order.id, { status: statusOfPaid(order, order.refundedCents), creditsRevoked: target, disputeWonAt: new Date() });
    this.logger.log(`Order ${order.id}: dispute ${disputeId} won, ${back?.change ?? 0} credits given back`);
    return 'applied';
  }

  /**
   * A refund that failed after it was counted: its cents leave the refunded amount and its share of
   * the credits comes back (a dispute, if any, still holds them). Once per refund, whichever event says it.
   */
  async reverseRefund(update: Extract<PaymentUpdate, { type: 'refund_failed' }>): Promise<'applied' | 'ignored'> {
    const order = await this.paidOrderOf(update.paymentRef);
    if (!(await this.orders.recordEvent(`fact:refund_failed:${update.refundId}`, 'refund_failed'))) return 'ignored';
    const failed = Math.min(update.amountCents, order.refundedCents);
    if (failed <= 0) return 'ignored';
    const refunded = order.refundedCents - failed;
    const disputed = order.status === 'disputed';
    const target = disputed ? order.credits : creditsForRefund(order, refunded);
    const back = await this.ledger.clawBack(orderLotRef(order.id), target, `Refund of ${order.number} failed: credits given back`);
    await this.orders.update(order.id, {
      refundedCents: refunded,
      refundFailedCents: order.refundFailedCents + failed,
      creditsRevoked: target,
      status: disputed ? 'disputed' : statusOfPaid(order, refunded),
    });
    this.logger.warn(`Order ${order.id}: refund ${update.refundId} of ${failed} cents failed, ${back?.change ?? 0} credits given back`);
    return 'applied';
  }

  private async paidOrderOf(paymentRef: string): Promise<Order> {
    const order = await this.orders.lockByPaymentRef(paymentRef);
    // The payment's own event has not arrived yet: the gateway delivers this one again later.
    if (!order || !PAID_STATUSES.includes(order.status)) throw new PaymentEventTooEarlyError();
    return order;
  }
}
