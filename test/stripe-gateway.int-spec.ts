import { randomBytes, randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { loadConfig } from 'src/config/app-config';
import { StripePaymentGateway } from 'src/modules/billing/adapters/stripe/stripe-payment-gateway.adapter';
import { InvalidWebhookError, PaymentGatewayError, RefundNotPossibleError } from 'src/modules/billing/domain/billing.errors';
import type { Order } from 'src/modules/billing/domain/order';
import { startStripeStandIn, type StripeStandIn } from './support/stripe-stand-in';

const SECRET_KEY = `sk_test_${randomBytes(12).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;

const makeOrder = (overrides: Partial<Order> = {}): Order => ({
  id: randomUUID(),
  number: 'ORD-7K3M9Q2X',
  userId: randomUUID(),
  kind: 'pack',
  packId: 'starter',
  description: 'Starter pack: 100 credits',
  credits: 100,
  validityDays: 90,
  amountCents: 900,
  refundedCents: 0,
  creditsRevoked: 0,
  gatewayLookups: 0,
  disputeWonAt: null,
  refundFailedCents: 0,
  status: 'pending',
  gateway: 'stripe',
  gatewaySessionId: null,
  gatewayPaymentRef: null,
  paymentMethod: null,
  invoiceUrl: null,
  createdAt: new Date(),
  paidAt: null,
  updatedAt: new Date(),
  ...overrides,
});

describe('StripePaymentGateway: the real Stripe SDK against a local stand-in of the Stripe API', () => {
  let standIn: StripeStandIn;
  let gateway: StripePaymentGateway;
  const logs: string[] = [];

  const gatewayWith = (secretKey: string) =>
    new StripePaymentGateway(
      loadConfig({}, { HAS_LOGIN: 'true', HAS_PAYMENT: 'true', STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: standIn.url }),
    );

  /** A checkout the way the billing service starts one; resolves with the order and the session id. */
  const checkout = async (overrides: Partial<Order> = {}) => {
    const order = makeOrder(overrides);
    const { sessionId } = await gateway.createCheckout({
      order,
      customerEmail: 'buyer@example.com',
      successUrl: 'http://localhost:3000/payment/success?order=x',
      cancelUrl: 'http://localhost:3000/pricing',
    });
    return { order, sessionId };
  };

  /** A paid checkout: its order carries the payment intent, as fulfilment would have stored it. */
  const paidCheckout = async (method?: Parameters<StripeStandIn['markPaid']>[1], overrides: Partial<Order> = {}) => {
    const { order, sessionId } = await checkout(overrides);
    const paid = standIn.markPaid(sessionId, method);
    return { ...paid, order: { ...order, status: 'paid' as const, gatewaySessionId: sessionId, gatewayPaymentRef: paid.paymentIntent } };
  };

  const deliver = (type: string, object: object, options: { secret?: string; timestamp?: number } = {}) => {
    const delivery = standIn.webhook(type, object, { secret: WEBHOOK_SECRET, ...options });
    return gateway.parseWebhook(Buffer.from(delivery.body), delivery.signature);
  };

  beforeAll(async () => {
    for (const level of ['log', 'warn', 'error'] as const) {
      jest.spyOn(Logger.prototype, level).mockImplementation((...args: unknown[]) => void logs.push(String(args[0])));
    }
    standIn = await startStripeStandIn({ secretKey: SECRET_KEY });
    gateway = gatewayWith(SECRET_KEY);
  });

  afterEach(() => {
    standIn.state.failing = false;
  });

  afterAll(async () => {
    await standIn.close();
    jest.restoreAllMocks();
  });

  describe('checkout', () => {
    it('creates a payment-mode Checkout Session for the order amount, keyed by the order, and returns its url', async () => {
      const order = makeOrder({ amountCents: 1999, description: 'Big pack: 500 credits' });
      const before = standIn.requests.length;

      const result = await gateway.createCheckout({
        order,
        customerEmail: 'buyer@example.com',
        successUrl: 'https://guides.example/payment/success?order=ORD-7K3M9Q2X',
        cancelUrl: 'https://guides.example/pricing',
      });

      expect(result.sessionId).toMatch(/^cs_test_/);
      expect(result.url).toBe(`https://checkout.stripe.test/c/pay/${result.sessionId}`);
      const sent = standIn.requests.slice(before);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', idempotencyKey: `checkout-${order.id}` });
      expect(sent[0]!.params).toEqual({
        mode: 'payment',
        line_items: [{ quantity: '1', price_data: { currency: 'usd', unit_amount: '1999', product_data: { name: 'Big pack: 500 credits' } } }],
        client_reference_id: order.id,
        customer_email: 'buyer@example.com',
        invoice_creation: { enabled: 'true' },
        metadata: { order_id: order.id },
        payment_intent_data: { metadata: { order_id: order.id } },
        success_url: 'https://guides.example/payment/success?order=ORD-7K3M9Q2X',
        cancel_url: 'https://guides.example/pricing',
      });
      expect(standIn.session(result.sessionId)).toMatchObject({ amount_total: 1999, currency: 'usd', status: 'open', payment_status: 'unpaid' });
    });

    it('gets the same session back when the same order is sent again (idempotency key)', async () => {
      const order = makeOrder();
      const request = { order, customerEmail: 'buyer@example.com', successUrl: 'http://localhost/ok', cancelUrl: 'http://localhost/no' };
      const first = await gateway.createCheckout(request);
      await expect(gateway.createCheckout(request)).resolves.toEqual(first);
    });
  });

  describe('webhooks', () => {
    it('maps a paid checkout.session.completed to paid, with the amount, currency, payment intent and card', async () => {
      const { session, paymentIntent, order } = await paidCheckout({ brand: 'visa', last4: '4242' });

      const event = await deliver('checkout.session.completed', session);

      expect(event.id).toMatch(/^evt_test_/);
      expect(event.update).toEqual({
        type: 'paid',
        sessionId: order.gatewaySessionId,
        amountPaidCents: 900,
        currency: 'usd',
        paymentRef: paymentIntent,
        paymentMethod: 'Visa •••• 4242',
        invoiceUrl: `https://invoice.stripe.test/i/${session.invoice as string}`,
      });
      const reads = standIn.requests.slice(-2);
      expect(reads[0]).toMatchObject({ method: 'GET', path: `/v1/payment_intents/${paymentIntent}`, query: { expand: ['latest_charge'] } });
      // Checkout was asked for an invoice: the receipt links to its hosted page.
      expect(reads[1]).toMatchObject({ method: 'GET', path: `/v1/invoices/${session.invoice as string}` });
    });

    it('pays without an invoice link when Stripe does not answer for the invoice', async () => {
      const { session } = await paidCheckout();
      const event = await deliver('checkout.session.completed', { ...session, invoice: 'in_test_missing' });
      expect(event.update).toMatchObject({ type: 'paid', invoiceUrl: null });
    });

    it('reads the payment intent id from an expanded payment_intent object too', async () => {
      const { session, paymentIntent } = await paidCheckout();
      const event = await deliver('checkout.session.completed', { ...session, payment_intent: { id: paymentIntent, object: 'payment_intent' } });
      expect(event.update).toMatchObject({ type: 'paid', paymentRef: paymentIntent, paymentMethod: 'Visa •••• 4242' });
    });

    it('ignores a completed session that is not paid yet (a delayed payment method)', async () => {
      const { sessionId } = await checkout();
      const session = { ...standIn.session(sessionId), status: 'complete', payment_status: 'unpaid' };
      await expect(deliver('checkout.session.completed', session)).resolves.toEqual({ id: expect.any(String), type: 'checkout.session.completed', update: null });
    });

    it('maps async_payment_succeeded to paid and async_payment_failed to failed', async () => {
      const { session, paymentIntent } = await paidCheckout({ type: 'sepa_debit' });
      await expect(deliver('checkout.session.async_payment_succeeded', session)).resolves.toMatchObject({
        update: { type: 'paid', sessionId: session.id, amountPaidCents: 900, paymentRef: paymentIntent, paymentMethod: 'SEPA Direct Debit' },
      });

      const { sessionId } = await checkout();
      const failed = { ...standIn.session(sessionId), status: 'complete', payment_status: 'unpaid' };
      await expect(deliver('checkout.session.async_payment_failed', failed)).resolves.toMatchObject({ update: { type: 'failed', sessionId } });
    });

    it('maps checkout.session.expired to expired', async () => {
      const { sessionId } = await checkout();
      const event = await deliver('checkout.session.expired', standIn.expire(sessionId));
      expect(event.update).toEqual({ type: 'expired', sessionId });
    });

    it('maps charge.refunded to the cumulative refunded amount of the payment', async () => {
      const { order, charge } = await paidCheckout();
      await gateway.refund(order, 200, 'key-a');
      await gateway.refund({ ...order, refundedCents: 200 }, 300, 'key-b');

      const event = await deliver('charge.refunded', standIn.charge(charge)!);

      expect(event.update).toEqual({ type: 'refunded', paymentRef: order.gatewayPaymentRef, refundedCents: 500 });
    });

    it('ignores a refunded charge without a payment intent (not a Checkout payment)', async () => {
      const { charge } = await paidCheckout();
      const event = await deliver('charge.refunded', { ...standIn.charge(charge), payment_intent: null, amount_refunded: 900 });
      expect(event.update).toBeNull();
    });

    it('maps charge.dispute.created to disputed, asking for the charge when the dispute lacks the payment intent', async () => {
      const { charge, paymentIntent } = await paidCheckout();
      await expect(deliver('charge.dispute.created', standIn.dispute(charge))).resolves.toMatchObject({
        update: { type: 'disputed', paymentRef: paymentIntent },
      });

      const event = await deliver('charge.dispute.created', standIn.dispute(charge, { withPaymentIntent: false }));
      expect(event.update).toEqual({ type: 'disputed', paymentRef: paymentIntent });
      expect(standIn.requests.at(-1)).toMatchObject({ method: 'GET', path: `/v1/charges/${charge}` });
    });

    it('answers a dispute it cannot resolve with PaymentGatewayError, so Stripe delivers it again', async () => {
      const { charge } = await paidCheckout();
      standIn.state.failing = true;
      await expect(deliver('charge.dispute.created', standIn.dispute(charge, { withPaymentIntent: false }))).rejects.toBeInstanceOf(PaymentGatewayError);
    });

    it('gives null for event types it does not handle, with the event id', async () => {
      const delivery = standIn.webhook('customer.created', { id: 'cus_test_1', object: 'customer' }, { secret: WEBHOOK_SECRET, id: 'evt_test_ignored' });
      await expect(gateway.parseWebhook(Buffer.from(delivery.body), delivery.signature)).resolves.toEqual({ id: 'evt_test_ignored', type: 'customer.created', update: null });
    });

    it('maps charge.dispute.closed with status won to dispute_won (with the dispute id), and a lost one to nothing', async () => {
      const { charge, paymentIntent } = await paidCheckout();
      const won = standIn.dispute(charge, { status: 'won' });
      await expect(deliver('charge.dispute.closed', won)).resolves.toMatchObject({ update: { type: 'dispute_won', paymentRef: paymentIntent, disputeId: won.id } });
      await expect(deliver('charge.dispute.closed', standIn.dispute(charge, { status: 'lost' }))).resolves.toMatchObject({ update: null });
      await expect(deliver('charge.dispute.closed', standIn.dispute(charge, { status: 'won', withPaymentIntent: false }))).resolves.toMatchObject({
        update: { type: 'dispute_won', paymentRef: paymentIntent },
      });
    });

    it('maps refund.failed, and refund.updated to failed, to refund_failed with the refund id and amount; a refund.updated still fine is nothing', async () => {
      const { order, paymentIntent } = await paidCheckout();
      await gateway.refund(order, 300, 'key-f');
      const refund = standIn.refunds().at(-1)!;
      await expect(deliver('refund.updated', refund)).resolves.toMatchObject({ update: null });
      const failed = standIn.failRefund(refund.id as string);
      for (const type of ['refund.failed', 'refund.updated', 'charge.refund.updated']) {
        await expect(deliver(type, failed)).resolves.toMatchObject({ update: { type: 'refund_failed', paymentRef: paymentIntent, refundId: refund.id, amountCents: 300 } });
      }
      // Without the payment intent on it: read from the charge.
      await expect(deliver('refund.failed', { ...failed, payment_intent: null })).resolves.toMatchObject({ update: { type: 'refund_failed', paymentRef: paymentIntent } });
    });

    it('refuses, without an exception, signed events that do not read as their type says: an id, the type and the problem', async () => {
      const { session, charge } = await paidCheckout();
      const chargeObject = standIn.charge(charge)!;
      const event = (type: string, object: unknown, extra: object = {}) =>
        JSON.stringify({ id: `evt_odd_${type}_${randomBytes(3).toString('hex')}`, object: 'event', type, livemode: false, data: { object }, ...extra });
      const odd: [string, string][] = [
        ['data.object missing', JSON.stringify({ id: 'evt_odd_1', object: 'event', type: 'checkout.session.completed', livemode: false, data: {} })],
        ['data.object null', event('checkout.session.completed', null)],
        ['data.object a string', event('charge.refunded', 'ch_test_1')],
        ['amount as a string', event('checkout.session.completed', { ...session, amount_total: '900' })],
        ['a huge amount', event('checkout.session.completed', { ...session, amount_total: 1e20 })],
        ['a negative refund', event('charge.refunded', { ...chargeObject, amount_refunded: -5 })],
        ['a fractional refund', event('charge.refunded', { ...chargeObject, amount_refunded: 2.5 })],
        ['another object than its type says', event('checkout.session.completed', chargeObject)],
        ['an unknown object', event('charge.dispute.created', { id: 'x_1', object: 'mystery' })],
        ['a session id of the wrong type', event('checkout.session.expired', { object: 'checkout.session', id: 42 })],
        ['a dispute without its charge', event('charge.dispute.closed', { id: 'dp_1', object: 'dispute', status: 'won', payment_intent: null })],
        ['livemode missing', JSON.stringify({ id: 'evt_odd_2', object: 'event', type: 'checkout.session.expired', data: { object: { id: 'cs_1', object: 'checkout.session' } } })],
        ['no id', JSON.stringify({ object: 'event', type: 'checkout.session.expired', livemode: false, data: { object: { id: 'cs_1', object: 'checkout.session' } } })],
        ['an array', '[1,2,3]'],
        ['not JSON', 'this is not json'],
      ];
      for (const [what, body] of odd) {
        const parsed = await gateway.parseWebhook(Buffer.from(body), standIn.sign(body, { secret: WEBHOOK_SECRET }));
        expect({ what, update: parsed.update, problem: parsed.problem }).toEqual({ what, update: null, problem: expect.stringMatching(/^unreadable event: /) });
        expect(parsed.id).toMatch(/^(evt_|unreadable:[0-9a-f]{32}$)/);
      }
      // Null metadata and other fields we do not read are no problem.
      await expect(deliver('checkout.session.completed', { ...session, metadata: null, customer_details: null })).resolves.toMatchObject({ update: { type: 'paid' } });
      expect(await gateway.parseWebhook(Buffer.from('[1,2,3]'), standIn.sign('[1,2,3]', { secret: WEBHOOK_SECRET }))).toMatchObject({ type: 'unknown' });
    });

    it('refuses events of the other mode: live on a test key, test on a live key (both sk_ and rk_ keys)', async () => {
      const { sessionId } = await checkout();
      const expired = standIn.expire(sessionId);
      const live = standIn.webhook('checkout.session.expired', expired, { secret: WEBHOOK_SECRET, livemode: true });
      const test = standIn.webhook('checkout.session.expired', expired, { secret: WEBHOOK_SECRET });
      const parse = (on: StripePaymentGateway, delivery: { body: string; signature: string }) => on.parseWebhook(Buffer.from(delivery.body), delivery.signature);
      for (const key of [SECRET_KEY, `rk_test_${randomBytes(8).toString('hex')}`]) {
        await expect(parse(gatewayWith(key), live)).resolves.toEqual({ id: live.id, type: 'checkout.session.expired', update: null, problem: "a live mode event, and this site's key is test mode" });
        await expect(parse(gatewayWith(key), test)).resolves.toMatchObject({ update: { type: 'expired' } });
      }
      for (const key of [`sk_live_${randomBytes(8).toString('hex')}`, `rk_live_${randomBytes(8).toString('hex')}`]) {
        await expect(parse(gatewayWith(key), test)).resolves.toMatchObject({ update: null, problem: "a test mode event, and this site's key is live mode" });
        await expect(parse(gatewayWith(key), live)).resolves.toMatchObject({ update: { type: 'expired' } });
      }
    });

    it('still takes the payment when the payment method cannot be read (null instead)', async () => {
      const { session } = await paidCheckout();
      standIn.state.failing = true;
      const event = await deliver('checkout.session.completed', session);
      expect(event.update).toMatchObject({ type: 'paid', amountPaidCents: 900, paymentMethod: null });
    });

    describe('refuses deliveries that are not verifiably from Stripe, now', () => {
      const delivery = () => standIn.webhook('checkout.session.expired', { id: 'cs_test_x', object: 'checkout.session' }, { secret: WEBHOOK_SECRET });
      /** The reason an InvalidWebhookError gives. */
      const refusal = async (body: string, signature: string | undefined) => {
        const error = await gateway.parseWebhook(Buffer.from(body), signature).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(InvalidWebhookError);
        return (error as InvalidWebhookError).message;
      };

      it('without a signature header', async () => {
        expect(await refusal(delivery().body, undefined)).toMatch(/missing/);
        expect(await refusal(delivery().body, '')).toMatch(/missing/);
      });

      it('with a malformed signature header', async () => {
        expect(await refusal(delivery().body, 'sha256=abc')).toMatch(/malformed/);
      });

      it('signed with another secret', async () => {
        const other = standIn.webhook('checkout.session.expired', { id: 'cs_test_x' }, { secret: `whsec_${randomBytes(16).toString('hex')}` });
        expect(await refusal(other.body, other.signature)).toMatch(/does not match/);
      });

      it('with a body changed after signing', async () => {
        const { body, signature } = delivery();
        const tampered = body.replace('cs_test_x', 'cs_test_y');
        expect(tampered).not.toBe(body);
        expect(await refusal(tampered, signature)).toMatch(/does not match/);
      });

      it('signed more than 5 minutes ago (and accepts one just inside)', async () => {
        const now = Math.floor(Date.now() / 1000);
        const stale = standIn.webhook('checkout.session.expired', { id: 'cs_test_x' }, { secret: WEBHOOK_SECRET, timestamp: now - 301 });
        expect(await refusal(stale.body, stale.signature)).toMatch(/too old/);

        const recent = standIn.webhook('checkout.session.expired', { id: 'cs_test_x', object: 'checkout.session' }, { secret: WEBHOOK_SECRET, timestamp: now - 290 });
        await expect(gateway.parseWebhook(Buffer.from(recent.body), recent.signature)).resolves.toMatchObject({ update: { type: 'expired' } });
      });

      it('signed more than 5 minutes in the future (and accepts one just inside)', async () => {
        const now = Math.floor(Date.now() / 1000);
        const later = standIn.webhook('checkout.session.expired', { id: 'cs_test_x', object: 'checkout.session' }, { secret: WEBHOOK_SECRET, timestamp: now + 3600 });
        expect(await refusal(later.body, later.signature)).toMatch(/in the future/);
        const justInside = standIn.webhook('checkout.session.expired', { id: 'cs_test_x', object: 'checkout.session' }, { secret: WEBHOOK_SECRET, timestamp: now + 290 });
        await expect(gateway.parseWebhook(Buffer.from(justInside.body), justInside.signature)).resolves.toMatchObject({ update: { type: 'expired' } });
      });

      it('with two signature headers merged, or two timestamps in one (one of them valid)', async () => {
        const { body, signature } = delivery();
        const other = standIn.sign(body, { secret: `whsec_${randomBytes(16).toString('hex')}`, timestamp: Math.floor(Date.now() / 1000) - 3600 });
        // Node joins a header sent twice with ", ".
        expect(await refusal(body, `${signature}, ${other}`)).toMatch(/malformed/);
        expect(await refusal(body, `${other}, ${signature}`)).toMatch(/malformed/);
        const [t, v1] = signature.split(',');
        expect(await refusal(body, `${t},t=1,${v1}`)).toMatch(/malformed/);
        // Several v1 signatures with one timestamp are Stripe's own (a secret being rolled).
        await expect(gateway.parseWebhook(Buffer.from(body), `${signature},v1=${'0'.repeat(64)}`)).resolves.toMatchObject({ update: { type: 'expired' } });
      });
    });
  });

  describe('payment method', () => {
    it.each([
      [{ brand: 'mastercard', last4: '4444' }, 'Mastercard •••• 4444'],
      [{ brand: 'amex', last4: '8431' }, 'American Express •••• 8431'],
      [{ brand: 'discover', last4: '1117' }, 'Discover •••• 1117'],
      [{ type: 'link' }, 'Link'],
      [{ type: 'us_bank_account' }, 'US bank account'],
    ])('%j reads "%s"', async (method, shown) => {
      const { order } = await paidCheckout(method);
      await expect(gateway.lookup(order.gatewaySessionId)).resolves.toMatchObject({ type: 'paid', paymentMethod: shown });
    });
  });

  describe('lookup', () => {
    it('reads a paid session as paid, an expired one as expired, an open one as nothing yet', async () => {
      const { order, paymentIntent } = await paidCheckout({ brand: 'visa', last4: '1881' });
      await expect(gateway.lookup(order.gatewaySessionId)).resolves.toEqual({
        type: 'paid',
        sessionId: order.gatewaySessionId,
        amountPaidCents: 900,
        currency: 'usd',
        paymentRef: paymentIntent,
        paymentMethod: 'Visa •••• 1881',
        invoiceUrl: expect.stringMatching(/^https:\/\/invoice\.stripe\.test\/i\/in_test_/),
      });

      const expired = await checkout();
      standIn.expire(expired.sessionId);
      await expect(gateway.lookup(expired.sessionId)).resolves.toEqual({ type: 'expired', sessionId: expired.sessionId });

      const open = await checkout();
      await expect(gateway.lookup(open.sessionId)).resolves.toBeNull();
    });

    it('turns an unknown session into PaymentGatewayError', async () => {
      await expect(gateway.lookup('cs_test_unknown')).rejects.toBeInstanceOf(PaymentGatewayError);
    });
  });

  describe('refund', () => {
    it("refunds in parts and reports the cumulative amount, each passing the admin request's idempotency key to Stripe", async () => {
      const { order, paymentIntent, charge } = await paidCheckout(undefined, { amountCents: 2500 });
      const before = standIn.requests.length;

      await expect(gateway.refund(order, 1000, 'first-refund')).resolves.toEqual({ refundedCents: 1000 });
      await expect(gateway.refund({ ...order, refundedCents: 1000 }, 500, 'second-refund')).resolves.toEqual({ refundedCents: 1500 });

      const refunds = standIn.requests.slice(before).filter((r) => r.path === '/v1/refunds');
      expect(refunds.map((r) => [r.params, r.idempotencyKey])).toEqual([
        [{ payment_intent: paymentIntent, amount: '1000' }, `refund-${order.id}-first-refund`],
        [{ payment_intent: paymentIntent, amount: '500' }, `refund-${order.id}-second-refund`],
      ]);
      expect(standIn.charge(charge)).toMatchObject({ amount_refunded: 1500, refunded: false });
    });

    it('refunds once when the same refund is sent again with its key', async () => {
      const { order, charge } = await paidCheckout();
      await gateway.refund(order, 400, 'retried');
      await expect(gateway.refund(order, 400, 'retried')).resolves.toEqual({ refundedCents: 400 });
      expect(standIn.charge(charge)).toMatchObject({ amount_refunded: 400 });
    });

    it('says RefundNotPossibleError when Stripe refuses (more than is left, nothing left) or there is no payment', async () => {
      const { order } = await paidCheckout();
      await gateway.refund(order, 600, 'r1');
      await expect(gateway.refund({ ...order, refundedCents: 600 }, 400, 'r2')).rejects.toBeInstanceOf(RefundNotPossibleError);
      await gateway.refund({ ...order, refundedCents: 600 }, 300, 'r3');
      await expect(gateway.refund({ ...order, refundedCents: 900 }, 100, 'r4')).rejects.toBeInstanceOf(RefundNotPossibleError);
      await expect(gateway.refund(makeOrder(), 100, 'r5')).rejects.toBeInstanceOf(RefundNotPossibleError);
    });
  });

  describe('when Stripe fails', () => {
    it('retries a 500 once with the same idempotency key, then says PaymentGatewayError', async () => {
      const order = makeOrder();
      standIn.state.failing = true;
      const before = standIn.requests.length;

      await expect(
        gateway.createCheckout({ order, customerEmail: 'buyer@example.com', successUrl: 'http://localhost/ok', cancelUrl: 'http://localhost/no' }),
      ).rejects.toBeInstanceOf(PaymentGatewayError);

      expect(standIn.requests.slice(before).map((r) => r.idempotencyKey)).toEqual([`checkout-${order.id}`, `checkout-${order.id}`]);
    });

    it('says PaymentGatewayError for lookups and refunds on a 500', async () => {
      const { order } = await paidCheckout();
      standIn.state.failing = true;
      await expect(gateway.lookup(order.gatewaySessionId)).rejects.toBeInstanceOf(PaymentGatewayError);
      await expect(gateway.refund(order, 100, 'r6')).rejects.toBeInstanceOf(PaymentGatewayError);
    });

    it('says PaymentGatewayError with a wrong key, and logs the failure without the key', async () => {
      const wrongKey = `sk_test_${randomBytes(12).toString('hex')}`;
      const misconfigured = gatewayWith(wrongKey);
      const from = logs.length;

      await expect(
        misconfigured.createCheckout({ order: makeOrder(), customerEmail: 'buyer@example.com', successUrl: 'http://localhost/ok', cancelUrl: 'http://localhost/no' }),
      ).rejects.toBeInstanceOf(PaymentGatewayError);

      expect(logs.slice(from)).toEqual([expect.stringMatching(/checkout\.sessions\.create failed: StripeAuthenticationError, HTTP 401/)]);
      expect(logs.join('\n')).not.toContain(wrongKey.slice(-4));
    });

    it('never logs the secret key', () => {
      expect(logs.join('\n')).not.toContain(SECRET_KEY);
    });
  });
});
