import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import Stripe from 'stripe';
import { z } from 'zod';
import { AppConfig } from 'src/config/app-config';
import type { AppError } from 'src/platform/errors/app-error';
import { InvalidWebhookError, PaymentGatewayError, RefundNotPossibleError } from 'src/modules/billing/domain/billing.errors';
import type { Order } from 'src/modules/billing/domain/order';
import { PaymentGateway, type CheckoutRequest, type GatewayEvent, type PaymentUpdate } from 'src/modules/billing/domain/payment-gateway.port';

/** Stripe's default tolerance (5 minutes), both ways: an older delivery may be a replay, a later one is forged or from a wrong clock. */
const WEBHOOK_TOLERANCE_SECONDS = 300;

// What we read of Stripe's objects, checked: a signed event can still be oddly shaped (an API
// version we do not know, a hand-made test event), and then it is refused, not applied.
const stripeId = z.string().min(1).max(255);
/** Cents: a non-negative integer a PostgreSQL integer holds, a million dollars at most. */
const cents = z.number().int().min(0).max(100_000_000);
/** An id, or the object itself when expanded. */
const expandable = z.union([stripeId, z.looseObject({ id: stripeId })]);
const envelopeSchema = z.looseObject({
  id: stripeId,
  type: z.string().min(1).max(100),
  livemode: z.boolean(),
  data: z.looseObject({ object: z.looseObject({ object: z.string() }) }),
});
const sessionSchema = z.looseObject({
  object: z.literal('checkout.session'),
  id: stripeId,
  status: z.string().nullish(),
  payment_status: z.string(),
  amount_total: cents.nullable(),
  currency: z.string().max(10).nullable(),
  payment_intent: expandable.nullable(),
  invoice: expandable.nullish(),
});
/** Expired or failed sessions: only the id is read. */
const sessionRefSchema = z.looseObject({ object: z.literal('checkout.session'), id: stripeId });
const chargeSchema = z.looseObject({ object: z.literal('charge'), id: stripeId, amount_refunded: cents, payment_intent: expandable.nullable() });
const disputeSchema = z.looseObject({ object: z.literal('dispute'), id: stripeId, status: z.string(), charge: expandable, payment_intent: expandable.nullable() });
const refundSchema = z.looseObject({ object: z.literal('refund'), id: stripeId, status: z.string().nullable(), amount: cents, charge: expandable.nullable(), payment_intent: expandable.nullable() });

/** A signed event refused unapplied: acknowledged, logged and kept for the admin with `problem`. */
class RefusedEvent extends Error {}

const CARD_BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  cartes_bancaires: 'Cartes Bancaires',
  eftpos_au: 'EFTPOS Australia',
};

const METHOD_TYPES: Record<string, string> = {
  us_bank_account: 'US bank account',
  sepa_debit: 'SEPA Direct Debit',
  cashapp: 'Cash App Pay',
  paypal: 'PayPal',
};

/** Names not in the tables above: `discover` -> `Discover`, `amazon_pay` -> `Amazon pay`. */
const capitalise = (name: string) => {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const NOT_JSON = Symbol('not JSON');

/** The first problems zod found, short enough for a log line and the admin's list. */
const describeIssues = (error: z.ZodError) =>
  error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || 'the event'}: ${issue.message}`)
    .join('; ');

/** An event's object read as its type says, or RefusedEvent saying what is wrong. */
function read<T extends z.ZodType>(schema: T, object: unknown): z.infer<T> {
  const parsed = schema.safeParse(object);
  if (!parsed.success) throw new RefusedEvent(`unreadable event: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

const isIdObject = (value: unknown): value is { id: string } => !!value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string';

/** Stripe fields that hold an id, or the object itself when expanded. */
const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

/** How a payment is shown to its buyer: "Visa •••• 4242", or the method ("Link"). */
function describePaymentMethod(details: Stripe.Charge.PaymentMethodDetails | null | undefined): string | null {
  if (!details) return null;
  const card = details.card;
  if (card) {
    const brand = card.brand && card.brand !== 'unknown' ? (CARD_BRANDS[card.brand] ?? capitalise(card.brand)) : 'Card';
    return card.last4 ? `${brand} •••• ${card.last4}` : brand;
  }
  return details.type ? (METHOD_TYPES[details.type] ?? capitalise(details.type)) : null;
}

/** Stripe Checkout behind the PaymentGateway port; the webhook is the source of truth, `lookup` a shortcut for the success page. */
@Injectable()
export class StripePaymentGateway extends PaymentGateway {
  readonly kind = 'stripe';
  private readonly stripe: Stripe;
  private readonly webhookSecret: string;
  /** The key's mode (sk_live_/rk_live_: live; sk_test_/rk_test_: test): events of the other mode are refused. Undefined: not told by the key. */
  private readonly livemode: boolean | undefined;
  private readonly logger = new Logger('StripeGateway');

  constructor(config: AppConfig) {
    super();
    const settings = config.payments.stripe;
    if (!settings) throw new Error('StripePaymentGateway needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
    // Only the origin is used: the SDK takes host, port and protocol (tests point it at a local stand-in).
    const api = new URL(settings.apiUrl);
    const protocol = api.protocol === 'http:' ? 'http' : 'https';
    this.stripe = new Stripe(settings.secretKey, {
      host: api.hostname.replace(/^\[|\]$/g, ''),
      port: api.port || (protocol === 'http' ? 80 : 443),
      protocol,
      // One retry, with the same idempotency key, then the caller hears PaymentGatewayError.
      maxNetworkRetries: 1,
      timeout: 10_000,
    });
    this.webhookSecret = settings.webhookSecret;
    const mode = /^[sr]k_(live|test)_/.exec(settings.secretKey)?.[1];
    this.livemode = mode === undefined ? undefined : mode === 'live';
  }

  async createCheckout({ order, customerEmail, successUrl, cancelUrl }: CheckoutRequest): Promise<{ sessionId: string; url: string }> {
    const metadata = { order_id: order.id };
    const session = await this.call('checkout.sessions.create', () =>
      this.stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: { currency: 'usd', unit_amount: order.amountCents, product_data: { name: order.description } },
            },
          ],
          client_reference_id: order.id,
          customer_email: customerEmail,
          // A one-time payment gets an invoice only when asked: the receipt links to its hosted page.
          invoice_creation: { enabled: true },
          metadata,
          payment_intent_data: { metadata },
          success_url: successUrl,
          cancel_url: cancelUrl,
        },
        // A retried request for the same order gets the same session, never a second one.
        { idempotencyKey: `checkout-${order.id}` },
      ),
    );
    if (!session.url) {
      this.logger.warn(`Stripe checkout session ${session.id} came back without a url (status ${session.status})`);
      throw new PaymentGatewayError();
    }
    return { sessionId: session.id, url: session.url };
  }

  async parseWebhook(rawBody: Buffer, signature: string | undefined): Promise<GatewayEvent> {
    const raw = this.verify(rawBody, signature);
    // Signed from here on: whatever is wrong is acknowledged and kept, never answered 5xx.
    const fallbackId = `unreadable:${createHash('sha256').update(rawBody).digest('hex').slice(0, 32)}`;
    const envelope = envelopeSchema.safeParse(raw);
    if (!envelope.success) {
      const shape = (raw && typeof raw === 'object' ? raw : {}) as { id?: unknown; type?: unknown };
      const id = typeof shape.id === 'string' && shape.id ? shape.id : fallbackId;
      const type = typeof shape.type === 'string' && shape.type ? shape.type : 'unknown';
      return { id, type, update: null, problem: `unreadable event: ${describeIssues(envelope.error)}` };
    }
    const event = envelope.data;
    if (this.livemode !== undefined && event.livemode !== this.livemode) {
      const mode = (live: boolean) => (live ? 'live' : 'test');
      return { id: event.id, type: event.type, update: null, problem: `a ${mode(event.livemode)} mode event, and this site's key is ${mode(this.livemode)} mode` };
    }
    try {
      return { id: event.id, type: event.type, update: await this.toUpdate(event.type, event.data.object) };
    } catch (error) {
      if (error instanceof RefusedEvent) return { id: event.id, type: event.type, update: null, problem: error.message };
      throw error;
    }
  }

  async resumeUrl(order: Order): Promise<string | null> {
    if (!order.gatewaySessionId) return null;
    const sessionId = order.gatewaySessionId;
    const session = await this.call('checkout.sessions.retrieve', () => this.stripe.checkout.sessions.retrieve(sessionId));
    return session.status === 'open' ? session.url : null;
  }

  async cancel(order: Order): Promise<void> {
    if (!order.gatewaySessionId) return;
    const sessionId = order.gatewaySessionId;
    // An open session expires at once; one already completed or expired answers with an error we can ignore (the webhook tells).
    await this.call('checkout.sessions.expire', () => this.stripe.checkout.sessions.expire(sessionId)).catch(() => undefined);
  }

  async lookup(sessionId: string): Promise<PaymentUpdate | null> {
    const session = await this.call('checkout.sessions.retrieve', () => this.stripe.checkout.sessions.retrieve(sessionId));
    if (session.payment_status === 'paid') return this.paid(session);
    if (session.status === 'expired') return { type: 'expired', sessionId: session.id };
    return null;
  }

  async refund(order: Order, amountCents: number, idempotencyKey: string): Promise<{ refundedCents: number }> {
    const paymentIntent = order.gatewayPaymentRef;
    if (!paymentIntent) throw new RefundNotPossibleError('This order has no payment to refund.');
    const refund = await this.call(
      'refunds.create',
      () =>
        this.stripe.refunds.create(
          { payment_intent: paymentIntent, amount: amountCents },
          // The admin request's own key: Stripe replays a retried refund instead of making a second one.
          { idempotencyKey: `refund-${order.id}-${idempotencyKey}` },
        ),
      // Stripe answered and said no (already refunded, more than what is left): not an outage.
      (error) => (error instanceof Stripe.errors.StripeInvalidRequestError ? new RefundNotPossibleError(`Stripe refused the refund: ${error.message}`) : undefined),
    );
    // The money has moved: from here on, a failed read falls back to our own sum instead of failing.
    try {
      const intent = await this.stripe.paymentIntents.retrieve(paymentIntent, { expand: ['latest_charge'] });
      if (intent.latest_charge && typeof intent.latest_charge === 'object') return { refundedCents: intent.latest_charge.amount_refunded };
    } catch (error) {
      this.logFailure('paymentIntents.retrieve after a refund', error);
    }
    return { refundedCents: order.refundedCents + refund.amount };
  }

  /** Checks the signature (one header, one timestamp within the tolerance either way) and returns the parsed JSON, or a marker when it is not JSON. */
  private verify(rawBody: Buffer, signature: string | undefined): unknown {
    if (!signature) throw new InvalidWebhookError('missing Stripe-Signature header');
    // Two headers arrive joined with ", ": two timestamps. Stripe sends one (several v1 while a secret rolls).
    const timestamps = signature.split(',').filter((part) => part.trim().startsWith('t='));
    if (timestamps.length !== 1) throw new InvalidWebhookError('malformed Stripe-Signature header');
    const timestamp = Number(timestamps[0]!.trim().slice(2));
    const age = Math.floor(Date.now() / 1000) - timestamp;
    if (!Number.isInteger(timestamp)) throw new InvalidWebhookError('malformed Stripe-Signature header');
    if (age > WEBHOOK_TOLERANCE_SECONDS) throw new InvalidWebhookError('timestamp too old');
    if (-age > WEBHOOK_TOLERANCE_SECONDS) throw new InvalidWebhookError('timestamp in the future');
    try {
      return this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret, WEBHOOK_TOLERANCE_SECONDS) as unknown;
    } catch (error) {
      // The SDK parses the body only once the signature matched: a signed body that is not JSON.
      if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) return NOT_JSON;
      if (/tolerance/i.test(error.message)) throw new InvalidWebhookError('timestamp too old');
      if (/extract timestamp|expected scheme/i.test(error.message)) throw new InvalidWebhookError('malformed Stripe-Signature header');
      throw new InvalidWebhookError('signature does not match');
    }
  }

  private async toUpdate(type: string, object: unknown): Promise<PaymentUpdate | null> {
    switch (type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        // A delayed method (bank debit) completes the session unpaid; async_payment_succeeded follows.
        const session = read(sessionSchema, object);
        return session.payment_status === 'paid' ? this.paid(session) : null;
      }
      case 'checkout.session.async_payment_failed':
        return { type: 'failed', sessionId: read(sessionRefSchema, object).id };
      case 'checkout.session.expired':
        return { type: 'expired', sessionId: read(sessionRefSchema, object).id };
      case 'charge.refunded': {
        const charge = read(chargeSchema, object);
        const paymentRef = idOf(charge.payment_intent);
        // amount_refunded is the charge's running total, which is what the port asks for.
        return paymentRef ? { type: 'refunded', paymentRef, refundedCents: charge.amount_refunded } : null;
      }
      case 'charge.dispute.created':
      case 'charge.dispute.closed': {
        const dispute = read(disputeSchema, object);
        if (type === 'charge.dispute.closed' && dispute.status !== 'won') return null;
        const paymentRef = idOf(dispute.payment_intent) ?? (await this.paymentIntentOfCharge(dispute.charge));
        if (!paymentRef) return null;
        return type === 'charge.dispute.created' ? { type: 'disputed', paymentRef } : { type: 'dispute_won', paymentRef, disputeId: dispute.id };
      }
      case 'refund.failed':
      case 'refund.updated':
      case 'charge.refund.updated': {
        // A refund that fails at the bank (days later) sends refund.failed and refund.updated: one fact, keyed by the refund's id.
        const refund = read(refundSchema, object);
        if (refund.status !== 'failed') return null;
        const paymentRef = idOf(refund.payment_intent) ?? (refund.charge ? await this.paymentIntentOfCharge(refund.charge) : null);
        return paymentRef ? { type: 'refund_failed', paymentRef, refundId: refund.id, amountCents: refund.amount } : null;
      }
      default:
        return null;
    }
  }

  /** A paid session, as a webhook carries it or the API answers it. */
  private async paid(
    session: Pick<Stripe.Checkout.Session, 'id' | 'amount_total' | 'currency'> & { payment_intent: string | { id: string } | null; invoice?: string | { id: string } | null },
  ): Promise<PaymentUpdate> {
    const paymentRef = idOf(session.payment_intent);
    const invoice = idOf(session.invoice ?? null);
    return {
      type: 'paid',
      sessionId: session.id,
      amountPaidCents: session.amount_total ?? 0,
      currency: session.currency ?? '',
      paymentRef,
      paymentMethod: paymentRef ? await this.paymentMethodOf(paymentRef) : null,
      invoiceUrl: invoice ? await this.invoiceUrlOf(invoice) : null,
    };
  }

  /** The invoice's hosted page for the receipt: nice to have, null when Stripe does not answer. */
  private async invoiceUrlOf(invoice: string): Promise<string | null> {
    try {
      return (await this.stripe.invoices.retrieve(invoice)).hosted_invoice_url ?? null;
    } catch (error) {
      this.logFailure('invoices.retrieve for the hosted invoice', error);
      return null;
    }
  }

  /** Nice to show, never worth failing a payment for: null when Stripe does not answer. */
  private async paymentMethodOf(paymentIntent: string): Promise<string | null> {
    try {
      const intent = await this.stripe.paymentIntents.retrieve(paymentIntent, { expand: ['latest_charge'] });
      const charge = intent.latest_charge;
      return charge && typeof charge === 'object' ? describePaymentMethod(charge.payment_method_details) : null;
    } catch (error) {
      this.logFailure('paymentIntents.retrieve for the payment method', error);
      return null;
    }
  }

  private async paymentIntentOfCharge(charge: string | { id: string; payment_intent?: unknown }): Promise<string | null> {
    if (typeof charge === 'object' && (typeof charge.payment_intent === 'string' || isIdObject(charge.payment_intent))) return idOf(charge.payment_intent);
    const chargeId = idOf(charge);
    if (!chargeId) return null;
    const retrieved = await this.call('charges.retrieve', () => this.stripe.charges.retrieve(chargeId));
    return idOf(retrieved.payment_intent);
  }

  /** Runs an API call; a failure is logged (type, code, request id: never the key) and becomes PaymentGatewayError unless `refusal` names it. */
  private async call<T>(operation: string, request: () => Promise<T>, refusal?: (error: unknown) => AppError | undefined): Promise<T> {
    try {
      return await request();
    } catch (error) {
      this.logFailure(operation, error);
      throw refusal?.(error) ?? new PaymentGatewayError();
    }
  }

  private logFailure(operation: string, error: unknown): void {
    if (error instanceof Stripe.errors.StripeError) {
      // Not error.message: an authentication error's message quotes (part of) the key.
      const what = [error.type, error.code, error.statusCode && `HTTP ${error.statusCode}`, error.requestId].filter(Boolean).join(', ');
      const log = error instanceof Stripe.errors.StripeAuthenticationError ? 'error' : 'warn';
      this.logger[log](`Stripe ${operation} failed: ${what}`);
    } else {
      this.logger.warn(`Stripe ${operation} failed: ${error instanceof Error ? error.name : typeof error}`);
    }
  }
}
