import { TestAccounts } from 'src/modules/auth/testing/test-accounts';
import { InMemoryCreditLedger } from 'src/modules/credits/testing/in-memory-credit-ledger';
import { errorOf, testConfig, useControllers } from 'src/platform/http/testing/controller-harness';
import { CheckoutService } from '../../application/checkout.service';
import type { GatewayEvent } from '../../domain/payment-gateway.port';
import { billingProviders, paid, USER } from '../../testing/billing-test-bed';
import { FAKE_WEBHOOK_SIGNATURE, FakePaymentGateway } from '../../testing/fake-payment-gateway';
import { InMemoryOrderRepository } from '../../testing/in-memory-order-repository';
import { StripeWebhookController } from './stripe-webhook.controller';

describe('StripeWebhookController (in process)', () => {
  let ledger: InMemoryCreditLedger;
  let orders: InMemoryOrderRepository;
  let env: Record<string, string>;
  beforeEach(() => {
    ledger = new InMemoryCreditLedger();
    orders = new InMemoryOrderRepository({ ledger });
    env = {};
  });
  const api = useControllers(() => ({
    controllers: [StripeWebhookController],
    // AdminOrdersService, among billing's services, reads accounts.
    providers: [...billingProviders({ orders, gateway: new FakePaymentGateway('stripe'), ledger }), ...new TestAccounts().providers()],
    config: testConfig(env),
  }));

  /** A signed delivery of `event`, as Stripe sends it: raw JSON bytes, whatever the content type says. */
  const deliver = (event: GatewayEvent | string, signature: string | null = FAKE_WEBHOOK_SIGNATURE) =>
    api.inject({
      method: 'POST',
      url: '/api/v1/payments/stripe/webhook',
      headers: { 'content-type': 'application/json; charset=utf-8', ...(signature === null ? {} : { 'stripe-signature': signature }) },
      payload: typeof event === 'string' ? event : JSON.stringify(event),
    });

  async function pendingOrder() {
    const { order_id } = await (await api.get(CheckoutService)).checkout(USER, { pack_id: 'starter' });
    return (await orders.findById(order_id))!;
  }

  it('applies a signed payment once: the credits granted, a redelivery acknowledged as a duplicate', async () => {
    const order = await pendingOrder();
    const event = { id: 'evt_1', type: 'checkout.session.completed', update: paid(order) };
    const first = await deliver(event);
    expect([first.statusCode, first.json()]).toEqual([200, { received: true, outcome: 'applied' }]);
    expect((await deliver(event)).json()).toEqual({ received: true, outcome: 'duplicate' });
    expect(await ledger.balance(USER.id)).toBe(100);
    expect((await orders.findById(order.id))!.status).toBe('paid');
  });

  it('acknowledges a signed event it will not apply (200, kept for the admin), and one about nothing of ours', async () => {
    const order = await pendingOrder();
    const refused = await deliver({ id: 'evt_live', type: 'checkout.session.completed', update: paid(order), problem: 'a live mode event' });
    expect(refused.json()).toEqual({ received: true, outcome: 'refused' });
    expect((await deliver({ id: 'evt_other', type: 'customer.created', update: null })).json()).toEqual({ received: true, outcome: 'ignored' });
    expect(await ledger.balance(USER.id)).toBe(0);
  });

  it('refuses a delivery without the signature or with a wrong one (400), and one that is not JSON, applying nothing', async () => {
    const order = await pendingOrder();
    const event = { id: 'evt_2', type: 'checkout.session.completed', update: paid(order) };
    for (const signature of [null, 't=1,v1=forged']) {
      const refused = await deliver(event, signature);
      expect([refused.statusCode, errorOf(refused).code]).toEqual([400, 'BILLING.INVALID_WEBHOOK']);
    }
    // Fastify's JSON parser refuses it before the controller, in the API's error shape.
    const notJson = await deliver('{not json');
    expect([notJson.statusCode, errorOf(notJson).code]).toEqual([400, 'HTTP.400']);
    expect(await ledger.balance(USER.id)).toBe(0);
  });

  it('answers 503 to a refund that arrives before its payment, so Stripe sends it again later', async () => {
    const early = await deliver({ id: 'evt_refund', type: 'charge.refunded', update: { type: 'refunded', paymentRef: 'pi_unknown', refundedCents: 100 } });
    expect([early.statusCode, errorOf(early).code]).toEqual([503, 'BILLING.EVENT_TOO_EARLY']);
    // Not recorded: the redelivery is applied, not a duplicate.
    expect((await deliver({ id: 'evt_refund', type: 'charge.refunded', update: { type: 'refunded', paymentRef: 'pi_unknown', refundedCents: 100 } })).statusCode).toBe(503);
  });

  it('answers 404 while payments are off', async () => {
    env = { HAS_PAYMENT: 'false' };
    const refused = await deliver({ id: 'evt_3', type: 'checkout.session.completed', update: null });
    expect([refused.statusCode, errorOf(refused).code]).toEqual([404, 'PAYMENTS.DISABLED']);
  });
});
