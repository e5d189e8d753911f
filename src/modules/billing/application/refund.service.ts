import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import type { OrderView } from 'src/contracts/billing';
import { requirePaymentsEnabled } from 'src/modules/credits';
import type { Order } from '../domain/order';
import { OrderNotFoundError, RefundKeyConflictError, RefundNotPossibleError } from '../domain/billing.errors';
import { OrderRepository } from '../domain/order-repository.port';
import { PaymentGateway } from '../domain/payment-gateway.port';
import { OrderViews } from './order-views.service';
import { PaymentEventsService } from './payment-events.service';

/** The one key of an order's self-service refund: every click, retry and tab converges on it. */
export const selfRefundKey = (orderId: string) => `self-refund:${orderId}`;

/**
 * Refunds: an admin's, and the buyer's own under the refund rule. What a refund does to the
 * credits is the 'refunded' event's (PaymentReversalsService), whoever asked.
 */
@Injectable()
export class RefundService {
  private readonly logger = new Logger('Billing');

  constructor(
    private readonly orders: OrderRepository,
    private readonly gateway: PaymentGateway,
    private readonly events: PaymentEventsService,
    private readonly views: OrderViews,
    private readonly config: AppConfig,
  ) {}

  /**
   * Refunds part or all of what is left of a paid order, through the gateway; its unspent
   * credits follow, recorded with the admin's id. Safe to retry: the order's row lock queues
   * concurrent refunds of an order, the key's lock those of one key, and a request whose idempotency key was used before refunds nothing and
   * answers with the order as that first refund left it (the gateway gets the key too).
   */
  refund(orderId: string, request: { amountCents?: number; idempotencyKey: string; adminId: string }): Promise<OrderView> {
    return this.refundOnce(orderId, request, () => Promise.resolve());
  }

  /**
   * The buyer's own refund of a whole pack under the refund rule (REFUND_WINDOW_DAYS,
   * REFUND_MAX_USED_PERCENT), checked under the order's lock. One key per order, so ten clicks at
   * once, a retry after a lost answer or a second tab refund once and answer with the refunded order.
   */
  refundOwn(userId: string, orderId: string): Promise<OrderView> {
    return this.refundOnce(orderId, { idempotencyKey: selfRefundKey(orderId), adminId: null, ownerId: userId }, async (order) => {
      const refusal = await this.views.selfRefundRefusal(order);
      if (refusal !== null) throw new RefundNotPossibleError(refusal ?? 'Only a paid order can be refunded.');
    });
  }

  private async refundOnce(
    orderId: string,
    request: { amountCents?: number; idempotencyKey: string; adminId: string | null; ownerId?: string },
    allowed: (order: Order) => Promise<void>,
  ): Promise<OrderView> {
    requirePaymentsEnabled(this.config);
    return this.orders.inTransaction(async () => {
      const order = await this.orders.lockById(orderId);
      if (!order || (request.ownerId !== undefined && order.userId !== request.ownerId)) throw new OrderNotFoundError();
      // Claimed before the gateway call: one key on two orders at once refunds one of them (the other: 409).
      await this.orders.holdRefundKey(request.idempotencyKey);
      const first = await this.orders.findRefund(request.idempotencyKey);
      if (first) {
        if (first.orderId !== order.id || (request.amountCents !== undefined && request.amountCents !== first.amountCents)) throw new RefundKeyConflictError();
        return this.views.view(order);
      }
      if (!order.gatewayPaymentRef || !['paid', 'partially_refunded'].includes(order.status)) {
        throw new RefundNotPossibleError('Only a paid order that is not fully refunded can be refunded.');
      }
      await allowed(order);
      const left = order.amountCents - order.refundedCents;
      const amount = request.amountCents ?? left;
      if (amount > left) throw new RefundNotPossibleError(`At most ${left} cents of this order can still be refunded.`);
      const { refundedCents } = await this.gateway.refund(order, amount, request.idempotencyKey);
      await this.orders.recordRefund({ orderId: order.id, idempotencyKey: request.idempotencyKey, amountCents: amount, refundedCents, adminId: request.adminId });
      await this.events.applyUpdate(`refund:${order.id}:${refundedCents}`, { type: 'refunded', paymentRef: order.gatewayPaymentRef, refundedCents }, request.adminId ?? undefined);
      this.logger.log(`Order ${order.id}: ${amount} cents refunded ${request.adminId ? `by admin ${request.adminId}` : 'by its buyer (the refund rule)'}`);
      return this.views.view((await this.orders.findById(order.id))!);
    });
  }
}
