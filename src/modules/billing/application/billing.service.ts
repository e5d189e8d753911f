import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import {
  creditsForDonation,
  DONATION_MAX_USD,
  DONATION_MIN_USD,
  DONATION_VALIDITY_DAYS,
  CREDITS_PER_DONATED_DOLLAR,
  TRIAL_DAYS,
  type AdminOrderDetail,
  type AdminOrderView,
  type CheckoutInput,
  type CheckoutView,
  type OrderStatus,
  type OrderView,
  type Paged,
  type PricingData,
  type RefusedEventView,
} from 'src/contracts/billing';
import { SessionAuthenticator } from 'src/modules/auth/auth-guards.module';
import { CreditLedger, PaymentsDisabledError } from 'src/modules/credits/credits.module';
import {
  OrderNotFoundError,
  OrderNotPayableError,
  PaymentEventTooEarlyError,
  RefundKeyConflictError,
  RefundNotPossibleError,
  TestCheckoutUnavailableError,
  TooManyOpenCheckoutsError,
  UnknownPackError,
} from '../domain/billing.errors';
import { creditsForRefund, orderLotRef, PAID_STATUSES, statusAfterRefund, statusOfPaid, type Order } from '../domain/order';
import { OrderRepository, type OrderSearch } from '../domain/order-repository.port';
import { PaymentGateway, type PaymentUpdate } from '../domain/payment-gateway.port';
import { PricingCatalog } from '../domain/pricing-catalog.port';

const ORDERS_PAGE_SIZE = 20;
/** Pending orders older than this expire (a checkout session lives 24 hours). */
export const PENDING_ORDER_TTL_MS = 24 * 60 * 60_000;
/** The payment method the local test checkout reports. */
export const TEST_PAYMENT_METHOD = 'Test card •••• 4242';

/** What happened to a gateway event ('refused': signed but unreadable or of the other mode, kept for the admin, not applied). */
export type EventOutcome = 'applied' | 'duplicate' | 'ignored' | 'refused';

/**
 * Checkout, orders, and the one fulfilment path every payment takes: Stripe's webhook, the success
 * page's look-up and the local test checkout all end in applyUpdate, which records the event id
 * and changes the order in one transaction, so each event applies once and each order's credits
 * are granted once, whatever arrives twice or out of order.
 */
@Injectable()
export class BillingService {
  private readonly logger = new Logger('Billing');

  constructor(
    private readonly orders: OrderRepository,
    private readonly gateway: PaymentGateway,
    private readonly catalog: PricingCatalog,
    private readonly ledger: CreditLedger,
    private readonly config: AppConfig,
    private readonly accounts: SessionAuthenticator,
  ) {}

  get gatewayKind(): PaymentGateway['kind'] {
    return this.gateway.kind;
  }

  /** The pricing page's data; null while payments are off. */
  pricing(): PricingData | null {
    if (!this.config.payments.enabled) return null;
    return {
      packs: this.catalog.packs(),
      test_mode: this.gateway.kind === 'local',
      trial: { credits: this.config.payments.trialCredits, days: TRIAL_DAYS },
      donation: { credits_per_dollar: CREDITS_PER_DONATED_DOLLAR, min_usd: DONATION_MIN_USD, max_usd: DONATION_MAX_USD, validity_days: DONATION_VALIDITY_DAYS },
    };
  }

  /** Creates a pending order priced from our table and starts the gateway's checkout for it. */
  async checkout(user: { id: string; email: string }, input: CheckoutInput): Promise<CheckoutView> {
    this.requireEnabled();
    const limit = this.config.payments.maxOpenCheckouts;
    const order = await this.orders.createIfFewerOpen(this.newOrder(user.id, input), limit, PENDING_ORDER_TTL_MS);
    if (!order) {
      // Retry-After: when the oldest open one expires (canceling one on /billing frees a place at once).
      const [oldest] = await this.orders.openOrders(user.id, PENDING_ORDER_TTL_MS);
      const seconds = oldest ? Math.ceil((oldest.createdAt.getTime() + PENDING_ORDER_TTL_MS - Date.now()) / 1000) : 60;
      throw new TooManyOpenCheckoutsError(limit, Math.min(Math.max(seconds, 1), PENDING_ORDER_TTL_MS / 1000));
    }
    try {
      const site = this.config.http.publicUrl;
      const session = await this.gateway.createCheckout({
        order,
        customerEmail: user.email,
        successUrl: `${site}/payment/success?order=${order.id}`,
        cancelUrl: `${site}/pricing`,
      });
      await this.orders.update(order.id, { gatewaySessionId: session.sessionId });
      return { order_id: order.id, url: session.url };
    } catch (error) {
      await this.orders.update(order.id, { status: 'failed' }, ['pending']);
      throw error;
    }
  }

  async listOrders(userId: string, page: number): Promise<Paged<OrderView>> {
    this.requireEnabled();
    const { items, total } = await this.orders.listForUser(userId, page, ORDERS_PAGE_SIZE);
    const taken = await this.takenBack(items);
    return { items: items.map((order) => toOrderView(order, taken.get(order.id))), page, pages: pageCount(total), total };
  }

  /** Admin: signed webhook events acknowledged without being applied (unreadable, or of the other mode), newest first. */
  async refusedEvents(page: number): Promise<Paged<RefusedEventView>> {
    this.requireEnabled();
    const { items, total } = await this.orders.refusedEvents(page, ORDERS_PAGE_SIZE);
    return { items: items.map((e) => ({ id: e.id, type: e.type, problem: e.problem, received_at: e.receivedAt.toISOString() })), page, pages: pageCount(total), total };
  }

  /** Admin: every order, newest first, by the buyer's address, the order number and status (each optional, parts match). */
  async listAllOrders(filter: OrderSearch, page: number): Promise<Paged<AdminOrderView>> {
    this.requireEnabled();
    const { items, total } = await this.orders.search(filter, page, ORDERS_PAGE_SIZE);
    const taken = await this.takenBack(items);
    return { items: items.map((order) => ({ ...toOrderView(order, taken.get(order.id)), user_id: order.userId, email: order.email })), page, pages: pageCount(total), total };
  }

  /** Admin: one order with its credits (granted, spent, taken back), its refunds and its gateway events. */
  async adminOrder(orderId: string): Promise<AdminOrderDetail> {
    this.requireEnabled();
    const order = await this.orders.findById(orderId);
    if (!order) throw new OrderNotFoundError();
    const [activity, trail, taken] = await Promise.all([this.ledger.lotActivity(orderLotRef(order.id)), this.orders.trail(order.id), this.takenBack([order])]);
    const actors = [order.userId, ...trail.refunds.map((r) => r.adminId), ...(activity?.events ?? []).map((e) => e.actorId)].filter((id): id is string => !!id);
    const emails = await this.accounts.emailsOf(actors);
    const who = (id: string | null | undefined) => (id ? (emails.get(id) ?? id) : null);
    const refundable = PAID_STATUSES.includes(order.status) && order.status !== 'disputed' ? order.amountCents - order.refundedCents : 0;
    return {
      order: { ...toOrderView(order, taken.get(order.id)), user_id: order.userId, email: emails.get(order.userId) ?? null },
      // What the ledger could take back (spent credits cannot be), not what the refunds asked for.
      credits_revoked: taken.get(order.id) ?? 0,
      refundable_cents: order.gatewayPaymentRef ? refundable : 0,
      lot: activity && { granted: activity.lot.granted, remaining: activity.lot.remaining, expires_at: activity.lot.expiresAt.toISOString() },
      credit_events: (activity?.events ?? []).map((e) => ({ kind: e.kind, credits: e.credits, description: e.description, created_at: e.createdAt.toISOString(), admin: who(e.actorId) })),
      refunds: trail.refunds.map((r) => ({ amount_cents: r.amountCents, refunded_cents: r.refundedCents, admin: who(r.adminId), created_at: r.createdAt.toISOString() })),
      payment_events: trail.events.map((e) => ({ id: e.id, type: e.type, received_at: e.receivedAt.toISOString() })),
    };
  }

  /**
   * One of the user's orders (someone else's answers like a missing one), as the database has it:
   * the webhook is the news. A pending Stripe order may also be looked up at the gateway, a few
   * times in all and spaced out (STRIPE_LOOKUP_DELAYS_MS after the order), for a webhook that is late.
   */
  async order(userId: string, orderId: string): Promise<OrderView> {
    this.requireEnabled();
    let order = await this.ownOrder(userId, orderId);
    const delays = this.config.payments.lookupDelaysMs;
    const done = order.gatewayLookups;
    const lookable = order.status === 'pending' && order.gateway === 'stripe' && order.gatewaySessionId && this.gateway.kind === 'stripe';
    if (lookable && done < delays.length && Date.now() - order.createdAt.getTime() >= delays[done]! && (await this.orders.claimLookup(order.id, done, delays[done]!))) {
      try {
        const update = await this.gateway.lookup(order.gatewaySessionId!);
        if (update) await this.applyUpdate(`lookup:${order.gatewaySessionId}:${update.type}`, update);
        order = (await this.orders.findById(order.id)) ?? order;
      } catch (error) {
        this.logger.warn({ err: error }, `Could not look up order ${order.id} at the gateway`);
      }
    }
    return this.view(order);
  }

  /** /billing's Resume on a pending order: where to finish paying it (409 when its checkout cannot be paid any more). */
  async resumeCheckout(userId: string, orderId: string): Promise<CheckoutView> {
    this.requireEnabled();
    const order = await this.ownOrder(userId, orderId);
    const url = order.status === 'pending' ? await this.gateway.resumeUrl(order) : null;
    if (!url) throw new OrderNotPayableError();
    return { order_id: order.id, url };
  }

  /** /billing's Cancel on a pending order: its checkout is closed and the order canceled (once; a paid order stays paid). */
  async cancelCheckout(userId: string, orderId: string): Promise<OrderView> {
    this.requireEnabled();
    const order = await this.ownOrder(userId, orderId);
    if (order.status !== 'pending' && order.status !== 'canceled') throw new OrderNotPayableError();
    if (order.status === 'pending' && order.gatewaySessionId) {
      await this.gateway.cancel(order);
      await this.applyUpdate(`cancel:${order.id}`, { type: 'canceled', sessionId: order.gatewaySessionId });
    }
    return this.view((await this.orders.findById(order.id))!);
  }

  /** The local test checkout's Pay and Cancel buttons: the same fulfilment as a Stripe webhook. */
  async testPayment(userId: string, orderId: string, result: 'paid' | 'canceled'): Promise<OrderView> {
    this.requireEnabled();
    if (this.gateway.kind !== 'local') throw new TestCheckoutUnavailableError();
    const order = await this.ownOrder(userId, orderId);
    const sessionId = order.gatewaySessionId;
    if (order.gateway !== 'local' || !sessionId) throw new OrderNotPayableError();
    const done: OrderStatus = result === 'paid' ? 'paid' : 'canceled';
    if (order.status !== 'pending' && order.status !== done) throw new OrderNotPayableError();
    const update: PaymentUpdate =
      result === 'paid'
        ? { type: 'paid', sessionId, amountPaidCents: order.amountCents, currency: 'usd', paymentRef: `local_pay_${order.id}`, paymentMethod: TEST_PAYMENT_METHOD }
        : { type: 'canceled', sessionId };
    await this.applyUpdate(`local:${order.id}:${result}`, update);
    return this.view((await this.orders.findById(order.id))!);
  }

  /**
   * Admin: refunds part or all of what is left of a paid order, through the gateway; its unspent
   * credits follow, recorded with the admin's id. Safe to retry: the order's row lock queues
   * concurrent refunds, and a request whose idempotency key was used before refunds nothing and
   * answers with the order as that first refund left it (the gateway gets the key too).
   */
  async refund(orderId: string, request: { amountCents?: number; idempotencyKey: string; adminId: string }): Promise<OrderView> {
    this.requireEnabled();
    return this.orders.inTransaction(async () => {
      const order = await this.orders.lockById(orderId);
      if (!order) throw new OrderNotFoundError();
      const first = await this.orders.findRefund(request.idempotencyKey);
      if (first) {
        if (first.orderId !== order.id || (request.amountCents !== undefined && request.amountCents !== first.amountCents)) throw new RefundKeyConflictError();
        return this.view(order);
      }
      if (!order.gatewayPaymentRef || !['paid', 'partially_refunded'].includes(order.status)) {
        throw new RefundNotPossibleError('Only a paid order that is not fully refunded can be refunded.');
      }
      const left = order.amountCents - order.refundedCents;
      const amount = request.amountCents ?? left;
      if (amount > left) throw new RefundNotPossibleError(`At most ${left} cents of this order can still be refunded.`);
      const { refundedCents } = await this.gateway.refund(order, amount, request.idempotencyKey);
      await this.orders.recordRefund({ orderId: order.id, idempotencyKey: request.idempotencyKey, amountCents: amount, refundedCents, adminId: request.adminId });
      await this.applyUpdate(`refund:${order.id}:${refundedCents}`, { type: 'refunded', paymentRef: order.gatewayPaymentRef, refundedCents }, request.adminId);
      this.logger.log(`Order ${order.id}: ${amount} cents refunded by admin ${request.adminId}`);
      return this.view((await this.orders.findById(order.id))!);
    });
  }

  /** A verified webhook delivery (Stripe signs it; the gateway adapter checks the signature). */
  async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<EventOutcome> {
    this.requireEnabled();
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
          return this.takeBackRefund(update.paymentRef, update.refundedCents, adminId);
        case 'disputed':
          return this.takeBackDispute(update.paymentRef);
        case 'dispute_won':
          return this.restoreDispute(update.paymentRef, update.disputeId);
        case 'refund_failed':
          return this.reverseRefund(update);
      }
    });
  }

  /** Housekeeping: pending orders older than a day expire (their checkout sessions have). */
  async expireStalePending(now = new Date()): Promise<number> {
    const expired = await this.orders.expirePending(new Date(now.getTime() - PENDING_ORDER_TTL_MS));
    if (expired) this.logger.log(`${expired} pending order(s) older than a day expired`);
    return expired;
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

  private async paidOrderOf(paymentRef: string): Promise<Order> {
    const order = await this.orders.lockByPaymentRef(paymentRef);
    // The payment's own event has not arrived yet: the gateway delivers this one again later.
    if (!order || !PAID_STATUSES.includes(order.status)) throw new PaymentEventTooEarlyError();
    return order;
  }

  private async takeBackRefund(paymentRef: string, refundedCents: number, adminId?: string): Promise<EventOutcome> {
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

  private async takeBackDispute(paymentRef: string): Promise<EventOutcome> {
    const order = await this.paidOrderOf(paymentRef);
    if (order.status === 'disputed') return 'ignored';
    const back = await this.ledger.clawBack(orderLotRef(order.id), order.credits, `Payment disputed: ${order.number}`);
    await this.orders.update(order.id, { status: 'disputed', creditsRevoked: order.credits });
    this.logger.warn(`Order ${order.id} disputed: ${back?.taken ?? 0} of ${order.credits} credits taken back`);
    return 'applied';
  }

  /** A dispute decided for us: the order is as its refunds left it, and the credits the dispute took come back. Once per dispute. */
  private async restoreDispute(paymentRef: string, disputeId: string): Promise<EventOutcome> {
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
  private async reverseRefund(update: Extract<PaymentUpdate, { type: 'refund_failed' }>): Promise<EventOutcome> {
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

  private async view(order: Order): Promise<OrderView> {
    return toOrderView(order, (await this.takenBack([order])).get(order.id));
  }

  /** The credits actually taken back of each order's lot (a refund or dispute takes only what is unspent). */
  private async takenBack(orders: Order[]): Promise<Map<string, number>> {
    const lots = await this.ledger.clawbacks(orders.filter((o) => o.creditsRevoked > 0).map((o) => orderLotRef(o.id)));
    return new Map(orders.map((o) => [o.id, lots.get(orderLotRef(o.id))?.taken ?? 0]));
  }

  private newOrder(userId: string, input: CheckoutInput) {
    const gateway = this.gateway.kind;
    if (input.pack_id !== undefined) {
      const pack = this.catalog.pack(input.pack_id);
      if (!pack) throw new UnknownPackError();
      return {
        userId,
        kind: 'pack' as const,
        packId: pack.id,
        description: `${pack.name} pack: ${pack.credits} credits`,
        credits: pack.credits,
        validityDays: pack.validity_days,
        amountCents: pack.price_cents,
        gateway,
      };
    }
    const usd = input.donation_usd!;
    const credits = creditsForDonation(usd);
    return {
      userId,
      kind: 'donation' as const,
      packId: null,
      description: `Donation of $${usd}: ${credits} credits`,
      credits,
      validityDays: DONATION_VALIDITY_DAYS,
      amountCents: usd * 100,
      gateway,
    };
  }

  private async ownOrder(userId: string, orderId: string): Promise<Order> {
    const order = await this.orders.findById(orderId);
    if (!order || order.userId !== userId) throw new OrderNotFoundError();
    return order;
  }

  private requireEnabled(): void {
    if (!this.config.payments.enabled) throw new PaymentsDisabledError();
  }
}

const pageCount = (total: number) => Math.max(1, Math.ceil(total / ORDERS_PAGE_SIZE));

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
