import type { Order } from '../domain/order';
import { InvalidWebhookError } from '../domain/billing.errors';
import { PaymentGateway, type CheckoutRequest, type GatewayEvent, type PaymentUpdate } from '../domain/payment-gateway.port';

/**
 * A payment service for specs: records what it was asked and answers what the spec sets. A webhook
 * is the GatewayEvent as JSON, signed with FAKE_WEBHOOK_SIGNATURE (anything else is refused as a
 * bad signature, as Stripe's would be). Refunds count once per idempotency key. Stripe's real SDK
 * is proven by test/stripe-gateway.int-spec.ts and test/billing-stripe.e2e-spec.ts.
 */
export const FAKE_WEBHOOK_SIGNATURE = 'sig';

export class FakePaymentGateway extends PaymentGateway {
  readonly checkouts: CheckoutRequest[] = [];
  readonly refunds: { orderId: string; amountCents: number; idempotencyKey: string }[] = [];
  readonly canceled: string[] = [];
  /** While true, starting a checkout fails as a service that is down. */
  failing = false;
  /** What lookup answers per checkout session. */
  readonly lookups = new Map<string, PaymentUpdate>();
  lookupCalls = 0;

  constructor(readonly kind: 'stripe' | 'local' = 'stripe') {
    super();
  }

  async createCheckout(request: CheckoutRequest) {
    if (this.failing) throw new Error('gateway down');
    this.checkouts.push(request);
    return { sessionId: `cs_${request.order.id}`, url: `https://pay.example/${request.order.id}` };
  }

  async parseWebhook(rawBody: Buffer, signature: string | undefined): Promise<GatewayEvent> {
    if (signature === undefined) throw new InvalidWebhookError('the Stripe-Signature header is missing');
    if (signature !== FAKE_WEBHOOK_SIGNATURE) throw new InvalidWebhookError('the signature does not match');
    try {
      return JSON.parse(rawBody.toString()) as GatewayEvent;
    } catch {
      throw new InvalidWebhookError('the body is not JSON');
    }
  }

  async lookup(sessionId: string) {
    this.lookupCalls++;
    return this.lookups.get(sessionId) ?? null;
  }

  /** The same key again refunds nothing more (the order already counts it). */
  async refund(order: Order, amountCents: number, idempotencyKey: string) {
    if (this.refunds.some((r) => r.idempotencyKey === idempotencyKey)) return { refundedCents: order.refundedCents };
    this.refunds.push({ orderId: order.id, amountCents, idempotencyKey });
    return { refundedCents: order.refundedCents + amountCents };
  }

  async resumeUrl(order: Order) {
    return `https://pay.example/${order.id}`;
  }

  async cancel(order: Order) {
    this.canceled.push(order.id);
  }
}
