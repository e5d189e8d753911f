import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { CreditLedger, requirePaymentsEnabled } from 'src/modules/credits';
import { orderLotRef } from '../domain/order';
import { OrderRepository } from '../domain/order-repository.port';
import { PaymentGateway, type PaymentUpdate } from '../domain/payment-gateway.port';
import { PaymentReversalsService } from './payment-reversals.service';

/** What happened to a gateway event ('refused': signed but unreadable or of the other mode, kept for the admin, not applied). */
export type EventOutcome = 'applied' | 'duplicate' | 'ignored' | 'refused';

/**
 * The one fulfilment path every payment takes: Stripe's webhook, the success page's look-up, the
 * local test checkout, a cancel and an admin's refund all end in applyUpdate, which records the
 * event id and changes the order in one transaction, so each event applies once and each order's
 * credits are granted once, whatever arrives twice or out of order.
 */
@Injectable()
export class PaymentEventsService {
  private readonly logger = new Logger('Billing');

  constructor(
    private readonly orders: OrderRepository,
    private readonly gateway: PaymentGateway,
    private readonly ledger: CreditLedger,
    private readonly config: AppConfig,
    private readonly reversals: PaymentReversalsService,
  ) {}

  /** A verified webhook delivery (Stripe signs it; the gateway adapter checks the signature). */
  async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<EventOutcome> {
    requirePaymentsEnabled(this.config);
    const event = await this.gateway.parseWebhook(rawBody, signature);
    if (event.problem) {
      // Acknowledged (a 5xx would have Stripe retry it for days), kept for the admin, not applied.
      this.logger.warn(`Webhook event ${event.id} (${event.type}) refused: ${event.problem}`);
      return (await this.orders.recordEvent(event.id, event.type, event.problem)) ? 'refused' : 'duplicate';
    }
    return this.applyUpdate(event.id, event.update);
  }

  /**
   * Applies one gateway event, once: its id is recorded in the same transaction as its effect, so
   * a redelivery finds it and changes nothing, and a failure records nothing (the gateway retries).
   */
  async applyUpdate(eventId: string, update: PaymentUpdate | null, adminId?: string): Promise<EventOutcome> {
    return this.orders.inTransaction(async () => {
      if (!(await this.orders.recordEvent(eventId, update?.type ?? 'ignored'))) return 'duplicate';
      if (!update) return 'ignored';
      // The order the event is about, locked, and named on the event for the admin's order page.
      const order = 'sessionId' in update ? await this.orders.lockBySession(update.sessionId) : await this.orders.lockByPaymentRef(update.paymentRef);
      if (order) await this.orders.linkEvent(eventId, order.id);
      switch (update.type) {
        case 'paid':
          return this.fulfil(update);
        case 'failed':
        case 'canceled':
        case 'expired': {
          if (!order) return 'ignored';
          return (await this.orders.update(order.id, { status: update.type }, ['pending'])) ? 'applied' : 'ignored';
        }
        case 'refunded':
          return this.reversals.takeBackRefund(update.paymentRef, update.refundedCents, adminId);
        case 'disputed':
          return this.reversals.takeBackDispute(update.paymentRef);
        case 'dispute_won':
          return this.reversals.restoreDispute(update.paymentRef, update.disputeId);
        case 'refund_failed':
          return this.reversals.reverseRefund(update);
      }
    });
  }

  private async fulfil(update: Extract<PaymentUpdate, { type: 'paid' }>): Promise<EventOutcome> {
    const order = await this.orders.lockBySession(update.sessionId);
    if (!order) {
      this.logger.warn(`Payment for an unknown checkout session ${update.sessionId}`);
      return 'ignored';
    }
    // Our own expiry of a stale order does not refuse money that arrived late (delayed methods).
    if (order.status !== 'pending' && order.status !== 'expired') return 'ignored';
    if (update.currency.toLowerCase() !== 'usd' || update.amountPaidCents < order.amountCents) {
      this.logger.error(`Order ${order.id} was paid ${update.amountPaidCents} ${update.currency}, not ${order.amountCents} usd: not fulfilled`);
      return 'ignored';
    }
    await this.orders.update(order.id, {
      status: 'paid',
      paidAt: new Date(),
      gatewayPaymentRef: update.paymentRef ?? order.gatewayPaymentRef,
      paymentMethod: update.paymentMethod,
      invoiceUrl: update.invoiceUrl ?? null,
    });
    await this.ledger.grant({
      userId: order.userId,
      source: order.kind === 'pack' ? 'pack' : 'donation',
      sourceRef: orderLotRef(order.id),
      credits: order.credits,
      validityDays: order.validityDays,
      description: `${order.description} (${order.number})`,
    });
    this.logger.log(`Order ${order.id} paid: ${order.credits} credits granted`);
    return 'applied';
  }
}
