import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import type { OrderView } from 'src/contracts/billing';
import { requirePaymentsEnabled } from 'src/modules/credits';
import { OrderNotFoundError, RefundKeyConflictError, RefundNotPossibleError } from '../domain/billing.errors';
import { OrderRepository } from '../domain/order-repository.port';
import { PaymentGateway } from '../domain/payment-gateway.port';
import { OrderViews } from './order-views.service';
import { PaymentEventsService } from './payment-events.service';

/** An admin's refund of an order; what it does to the credits is the 'refunded' event's (PaymentReversalsService). */
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
  async refund(orderId: string, request: { amountCents?: number; idempotencyKey: string; adminId: string }): Promise<OrderView> {
    requirePaymentsEnabled(this.config);
    return this.orders.inTransaction(async () => {
      const order = await this.orders.lockById(orderId);
      if (!order) throw new OrderNotFoundError();
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
      const left = order.amountCents - order.refundedCents;
      const amount = request.amountCents ?? left;
      if (amount > left) throw new RefundNotPossibleError(`At most ${left} cents of this order can still be refunded.`);
      const { refundedCents } = await this.gateway.refund(order, amount, request.idempotencyKey);
      await this.orders.recordRefund({ orderId: order.id, idempotencyKey: request.idempotencyKey, amountCents: amount, refundedCents, adminId: request.adminId });
      await this.events.applyUpdate(`refund:${order.id}:${refundedCents}`, { type: 'refunded', paymentRef: order.gatewayPaymentRef, refundedCents }, request.adminId);
      this.logger.log(`Order ${order.id}: ${amount} cents refunded by admin ${request.adminId}`);
      return this.views.view((await this.orders.findById(order.id))!);
    });
  }
}
