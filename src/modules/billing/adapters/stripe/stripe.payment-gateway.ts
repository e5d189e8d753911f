import { Injectable, Logger } from '@nestjs/common';
import Stripe from 'stripe';
import { AppConfig } from 'src/config/app-config';
import type { AppError } from 'src/platform/errors/app-error';
import { InvalidWebhookError, PaymentGatewayError, RefundNotPossibleError } from 'src/modules/billing/domain/billing.errors';
import type { Order } from 'src/modules/billing/domain/order';
import { PaymentGateway, type CheckoutRequest, type GatewayEvent, type PaymentUpdate } from 'src/modules/billing/domain/payment-gateway.port';

/** Stripe's default tolerance (the 5 minutes): an older delivery may be a replay. */
const WEBHOOK_TOLERANCE_SECONDS = 300;

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
    const event = this.verify(rawBody, signature);
    return { id: event.id, update: await this.toUpdate(event) };
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

  private verify(rawBody: Buffer, signature: string | undefined): Stripe.Event {
    if (!signature) throw new InvalidWebhookError('missing Stripe-Signature header');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) throw new InvalidWebhookError('not a Stripe event');
      if (/tolerance/i.test(error.message)) throw new InvalidWebhookError('timestamp too old');
      if (/extract timestamp|expected scheme/i.test(error.message)) throw new InvalidWebhookError('malformed Stripe-Signature header');
      throw new InvalidWebhookError('signature does not match');
    }
    // Signed by Stripe, so well formed; checked anyway before anything reads it.
    const shape = event as Partial<Stripe.Event> | null;
    if (typeof shape?.id !== 'string' || typeof shape.type !== 'string' || typeof shape.data?.object !== 'object') {
      throw new InvalidWebhookError('not a Stripe event');
    }
    return event;
  }

  private async toUpdate(event: Stripe.Event): Promise<PaymentUpdate | null> {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        // A delayed method (bank debit) completes the session unpaid; async_payment_succeeded follows.
        return event.data.object.payment_status === 'paid' ? this.paid(event.data.object) : null;
      case 'checkout.session.async_payment_failed':
        return { type: 'failed', sessionId: event.data.object.id };
      case 'checkout.session.expired':
        return { type: 'expired', sessionId: event.data.object.id };
      case 'charge.refunded': {
        const paymentRef = idOf(event.data.object.payment_intent);
        // amount_refunded is the charge's running total, which is what the port asks for.
        return paymentRef ? { type: 'refunded', paymentRef, refundedCents: event.data.object.amount_refunded } : null;
      }
      case 'charge.dispute.created': {
        const dispute = event.data.object;
        const paymentRef = idOf(dispute.payment_intent) ?? (await this.paymentIntentOfCharge(dispute.charge));
        return paymentRef ? { type: 'disputed', paymentRef } : null;
      }
      default:
        return null;
    }
  }

  private async paid(session: Stripe.Checkout.Session): Promise<PaymentUpdate> {
    const paymentRef = idOf(session.payment_intent);
    return {
      type: 'paid',
      sessionId: session.id,
      amountPaidCents: session.amount_total ?? 0,
      currency: session.currency ?? '',
      paymentRef,
      paymentMethod: paymentRef ? await this.paymentMethodOf(paymentRef) : null,
    };
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

  private async paymentIntentOfCharge(charge: string | Stripe.Charge): Promise<string | null> {
    if (typeof charge === 'object' && charge.payment_intent) return idOf(charge.payment_intent);
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
