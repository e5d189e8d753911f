import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import {
  creditsForDonation,
  DONATION_MAX_USD,
  DONATION_MIN_USD,
  DONATION_VALIDITY_DAYS,
  CREDITS_PER_DONATED_DOLLAR,
  TRIAL_DAYS,
  type CheckoutInput,
  type CheckoutView,
  type OrderStatus,
  type OrderView,
  type Paged,
  type PricingData,
} from 'src/contracts/billing';
import { paymentsEnabled, requirePaymentsEnabled } from 'src/modules/credits';
import { OrderNotFoundError, OrderNotPayableError, TestCheckoutUnavailableError, TooManyOpenCheckoutsError, UnknownPackError } from '../domain/billing.errors';
import type { Order } from '../domain/order';
import { OrderRepository } from '../domain/order-repository.port';
import { PaymentGateway, type PaymentUpdate } from '../domain/payment-gateway.port';
import { PricingCatalog } from '../domain/pricing-catalog.port';
import { ORDERS_PAGE_SIZE, OrderViews, pageCount } from './order-views.service';
import { PaymentEventsService } from './payment-events.service';

/** Pending orders older than this expire (a checkout session lives 24 hours). */
export const PENDING_ORDER_TTL_MS = 24 * 60 * 60_000;
/** The payment method the local test checkout reports. */
export const TEST_PAYMENT_METHOD = 'Test card •••• 4242';

/**
 * The buyer's side: pricing, checkout, their orders, and Resume, Cancel and the test checkout's
 * buttons on a pending order. Whatever changes an order's status goes through PaymentEventsService.
 */
@Injectable()
export class CheckoutService {
  private readonly logger = new Logger('Billing');

  constructor(
    private readonly orders: OrderRepository,
    private readonly gateway: PaymentGateway,
    private readonly catalog: PricingCatalog,
    private readonly events: PaymentEventsService,
    private readonly views: OrderViews,
    private readonly config: AppConfig,
  ) {}

  /** The pricing page's data; null while payments are off. */
  pricing(): PricingData | null {
    if (!paymentsEnabled(this.config)) return null;
    return {
      packs: this.catalog.packs(),
      test_mode: this.gateway.kind === 'local',
      trial: { credits: this.config.payments.trialCredits, days: TRIAL_DAYS },
      donation: { credits_per_dollar: CREDITS_PER_DONATED_DOLLAR, min_usd: DONATION_MIN_USD, max_usd: DONATION_MAX_USD, validity_days: DONATION_VALIDITY_DAYS },
      refund_rule: { window_days: this.config.payments.refundRule.windowDays, max_used_percent: this.config.payments.refundRule.maxUsedPercent },
    };
  }

  /** Creates a pending order priced from our table and starts the gateway's checkout for it. */
  async checkout(user: { id: string; email: string }, input: CheckoutInput): Promise<CheckoutView> {
    requirePaymentsEnabled(this.config);
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
    requirePaymentsEnabled(this.config);
    const { items, total } = await this.orders.listForUser(userId, page, ORDERS_PAGE_SIZE);
    return { items: await this.views.views(items), page, pages: pageCount(total), total };
  }

  /**
   * One of the user's orders (someone else's answers like a missing one), as the database has it:
   * the webhook is the news. A pending Stripe order may also be looked up at the gateway, a few
   * times in all and spaced out (STRIPE_LOOKUP_DELAYS_MS after the order), for a webhook that is late.
   */
  async order(userId: string, orderId: string): Promise<OrderView> {
    requirePaymentsEnabled(this.config);
    let order = await this.ownOrder(userId, orderId);
    const delays = this.config.payments.lookupDelaysMs;
    const done = order.gatewayLookups;
    const lookable = order.status === 'pending' && order.gateway === 'stripe' && order.gatewaySessionId && this.gateway.kind === 'stripe';
    if (lookable && done < delays.length && Date.now() - order.createdAt.getTime() >= delays[done]! && (await this.orders.claimLookup(order.id, done, delays[done]!))) {
      try {
        const update = await this.gateway.lookup(order.gatewaySessionId!);
        if (update) await this.events.applyUpdate(`lookup:${order.gatewaySessionId}:${update.type}`, update);
        order = (await this.orders.findById(order.id)) ?? order;
      } catch (error) {
        this.logger.warn({ err: error }, `Could not look up order ${order.id} at the gateway`);
      }
    }
    return this.views.view(order);
  }

  /** /billing's Resume on a pending order: where to finish paying it (409 when its checkout cannot be paid any more). */
  async resumeCheckout(userId: string, orderId: string): Promise<CheckoutView> {
    requirePaymentsEnabled(this.config);
    const order = await this.ownOrder(userId, orderId);
    const url = order.status === 'pending' ? await this.gateway.resumeUrl(order) : null;
    if (!url) throw new OrderNotPayableError();
    return { order_id: order.id, url };
  }

  /** /billing's Cancel on a pending order: its checkout is closed and the order canceled (once; a paid order stays paid). */
  async cancelCheckout(userId: string, orderId: string): Promise<OrderView> {
    requirePaymentsEnabled(this.config);
    const order = await this.ownOrder(userId, orderId);
    if (order.status !== 'pending' && order.status !== 'canceled') throw new OrderNotPayableError();
    if (order.status === 'pending' && order.gatewaySessionId) {
      await this.gateway.cancel(order);
      await this.events.applyUpdate(`cancel:${order.id}`, { type: 'canceled', sessionId: order.gatewaySessionId });
    }
    return this.views.view((await this.orders.findById(order.id))!);
  }

  /** The local test checkout's Pay and Cancel buttons: the same fulfilment as a Stripe webhook. */
  async testPayment(userId: string, orderId: string, result: 'paid' | 'canceled'): Promise<OrderView> {
    requirePaymentsEnabled(this.config);
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
    await this.events.applyUpdate(`local:${order.id}:${result}`, update);
    return this.views.view((await this.orders.findById(order.id))!);
  }

  /** Housekeeping: pending orders older than a day expire (their checkout sessions have). */
  async expireStalePending(now = new Date()): Promise<number> {
    const expired = await this.orders.expirePending(new Date(now.getTime() - PENDING_ORDER_TTL_MS));
    if (expired) this.logger.log(`${expired} pending order(s) older than a day expired`);
    return expired;
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
}
