import { Injectable } from '@nestjs/common';
import type { Order } from '../../domain/order';
import { InvalidWebhookError } from '../../domain/billing.errors';
import { PaymentGateway, type CheckoutRequest, type GatewayEvent, type PaymentUpdate } from '../../domain/payment-gateway.port';

/**
 * The embedded default without STRIPE_SECRET_KEY: the site's own test checkout page
 * (/payment/test-checkout), marked as a test, no money taken. Its Pay and Cancel buttons go through
 * CheckoutService.testPayment, which applies the same PaymentUpdate a Stripe webhook would.
 */
@Injectable()
export class LocalPaymentGateway extends PaymentGateway {
  readonly kind = 'local';

  createCheckout({ order }: CheckoutRequest): Promise<{ sessionId: string; url: string }> {
    return Promise.resolve({ sessionId: `local_${order.id}`, url: `/payment/test-checkout?order=${order.id}` });
  }

  parseWebhook(): Promise<GatewayEvent> {
    return Promise.reject(new InvalidWebhookError('no payment service is configured'));
  }

  resumeUrl(order: Order): Promise<string | null> {
    return Promise.resolve(`/payment/test-checkout?order=${order.id}`);
  }

  /** Nothing to close: the order's status is the test checkout's only state. */
  cancel(): Promise<void> {
    return Promise.resolve();
  }

  /** Nothing to ask: the test checkout applies its result directly. */
  lookup(): Promise<PaymentUpdate | null> {
    return Promise.resolve(null);
  }

  /** Nothing to call: RefundService records each key's refund once, in the order's transaction. */
  refund(order: Order, amountCents: number): Promise<{ refundedCents: number }> {
    return Promise.resolve({ refundedCents: order.refundedCents + amountCents });
  }
}
