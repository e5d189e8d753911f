import { randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { Client } from 'pg';
import type { CreditsView, LedgerEventView, OrderView, Paged } from 'src/contracts/billing';
import type { InProcessApp } from './support/in-process-app';
import { startInProcessSite, type InProcessSite } from './support/site';
import { startStripeStandIn, type StripeStandIn } from './support/stripe-stand-in';
import { until } from './support/until';

const SECRET_KEY = `sk_test_${randomBytes(12).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
const ADMIN = 'billing-ops@example.com';
const WEBHOOK = '/api/v1/payments/stripe/webhook';

/**
 * Stripe payments end to end: the web app on a database of its own, the
 * real Stripe SDK talking to a local stand-in, and webhooks signed like Stripe signs them. Redis is
 * on (own key prefix) and no worker runs, so no scheduled housekeeping grants trials: every balance
 * below comes from the orders alone.
 */
describe('credits and Stripe payments, end to end', () => {
  let site: InProcessSite;
  let standIn: StripeStandIn;
  let app: InProcessApp;
  let db: Client;
  let adminToken: string;

  beforeAll(async () => {
    standIn = await startStripeStandIn({ secretKey: SECRET_KEY });
    site = await startInProcessSite({
      redis: true,
      env: {
        HAS_LOGIN: 'true',
        HAS_PAYMENT: 'true',
        NODE_ENV: 'production',
        MIGRATE_ON_START: 'true',
        STRIPE_SECRET_KEY: SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: standIn.url,
        ADMIN_EMAILS: ADMIN,
        // Each test is a visitor of its own through X-Forwarded-For (per-IP rate limits).
        TRUST_PROXY: 'true',
        // The success page may ask Stripe at once (the races below); the spacing has an app of its own.
        STRIPE_LOOKUP_DELAYS_MS: '0,0,0',
      },
    });
    ({ app } = site);
    db = await site.db();
    adminToken = await site.signedInUser(ADMIN);
  });

  afterAll(async () => {
    await site?.close();
    await standIn?.close();
  });

  let ip = '';
  beforeEach(() => {
    ip = `10.${[1, 2, 3].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;
  });

  /** The API as a client sends it: the bearer token in Authorization (no cookie, so no Origin check). */
  const call = (method: string, path: string, { token, body, base = app.url, headers = {} }: { token?: string; body?: unknown; base?: string; headers?: Record<string, string> } = {}) =>
    fetch(`${base}${path}`, {
      method,
      redirect: 'manual',
      headers: { 'x-forwarded-for': ip, ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const read = async <T>(path: string, token: string): Promise<T> => {
    const response = await call('GET', path, { token });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };
  const balance = async (token: string) => (await read<CreditsView>('/api/v1/credits', token)).balance;
  const history = async (token: string) => (await read<Paged<LedgerEventView>>('/api/v1/credits/history', token)).items;
  /** The order as the billing history shows it (the list never asks the gateway, unlike GET /orders/:id). */
  const listed = async (token: string, orderId: string) => (await read<Paged<OrderView>>('/api/v1/orders', token)).items.find((o) => o.id === orderId)!;
  const rows = async <T = Record<string, unknown>>(query: string, params: unknown[] = []) => (await db.query(query, params)).rows as T[];
  const lotsOf = (orderId: string) => rows<{ id: string; granted: number; remaining: number; expires_at: Date }>(`select * from credit_lots where source_ref = $1`, [`order:${orderId}`]);
  /** Simulates spending: what is left of the order's lot, set directly (holding charges through the API belongs to the next issue). */
  const spendDownTo = (orderId: string, remaining: number) => db.query(`update credit_lots set remaining = $2 where source_ref = $1`, [`order:${orderId}`, remaining]);

  /** What a user or operator could notice of an order: to compare before and after a delivery that must change nothing. */
  const snapshot = async (token: string, orderId: string) => ({
    balance: await balance(token),
    order: await listed(token, orderId),
    history: await history(token),
    lots: await lotsOf(orderId),
  });

  const newUser = async () => {
    const email = `buyer-${randomBytes(4).toString('hex')}@example.com`;
    return { email, token: await site.signedInUser(email) };
  };

  async function checkout(token: string, input: object = { pack_id: 'popular' }) {
    const response = await call('POST', '/api/v1/checkout', { token, body: input });
    expect(response.status).toBe(201);
    const { order_id: orderId, url } = (await response.json()) as { order_id: string; url: string };
    return { orderId, url, sessionId: url.split('/').at(-1)! };
  }

  /** A webhook delivery with the headers Stripe sends. */
  const postWebhook = (body: string, signature?: string, base = app.url) =>
    fetch(`${base}${WEBHOOK}`, {
      method: 'POST',
      headers: {
        'x-forwarded-for': ip,
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        ...(signature ? { 'stripe-signature': signature } : {}),
      },
      body,
    });
  const signed = (type: string, object: object, options: { timestamp?: number } = {}) => standIn.webhook(type, object, { secret: WEBHOOK_SECRET, ...options });
  const deliver = (type: string, object: object) => {
    const { body, signature } = signed(type, object);
    return postWebhook(body, signature);
  };
  const expectOutcome = async (response: Response, outcome: string) => {
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, outcome });
  };

  /** A paid 'popular' order: checkout, the buyer pays at the stand-in, the completed webhook arrives. */
  async function paidOrder(token: string, input?: object) {
    const order = await checkout(token, input);
    const paid = standIn.markPaid(order.sessionId);
    await expectOutcome(await deliver('checkout.session.completed', paid.session), 'applied');
    return { ...order, ...paid };
  }
  const chargeRefunded = (charge: string, amountRefunded: number) => {
    const current = standIn.charge(charge)!;
    return { ...current, amount_refunded: amountRefunded, refunded: amountRefunded === current.amount };
  };

  it('sells a pack: checkout at Stripe, the signed webhook grants 500 credits once, however often it arrives', async () => {
    const { token, email } = await newUser();
    const order = await checkout(token);
    expect(order.url).toBe(`https://checkout.stripe.test/c/pay/${order.sessionId}`);
    const sent = standIn.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.method === 'POST').at(-1)!;
    expect(sent.params).toMatchObject({
      line_items: [{ quantity: '1', price_data: { currency: 'usd', unit_amount: '999' } }],
      metadata: { order_id: order.orderId },
      customer_email: email,
      success_url: expect.stringContaining(`/payment/success?order=${order.orderId}`),
    });
    expect(await listed(token, order.orderId)).toMatchObject({ status: 'pending', amount_cents: 999, credits: 500, refunded_cents: 0, payment_method: null });
    expect(await balance(token)).toBe(0);

    const paid = standIn.markPaid(order.sessionId);
    const delivery = signed('checkout.session.completed', paid.session);
    await expectOutcome(await postWebhook(delivery.body, delivery.signature), 'applied');

    const order_ = await listed(token, order.orderId);
    expect(order_).toMatchObject({ status: 'paid', payment_method: 'Visa •••• 4242', test: false });
    expect(order_.paid_at).not.toBeNull();
    expect(await balance(token)).toBe(500);
    expect((await history(token))[0]).toMatchObject({ kind: 'grant', credits: 500, description: expect.stringContaining(order_.number) });
    expect(await lotsOf(order.orderId)).toEqual([expect.objectContaining({ granted: 500, remaining: 500 })]);
    // Checkout was asked for an invoice: the receipt links to Stripe's hosted page of it, and takes no "test mode" mark.
    expect(sent.params).toMatchObject({ invoice_creation: { enabled: 'true' } });
    expect(await read(`/api/v1/orders/${order.orderId}/receipt`, token)).toMatchObject({ invoice_url: `https://invoice.stripe.test/i/${paid.session.invoice as string}`, order: { test: false } });

    const before = await snapshot(token, order.orderId);
    await expectOutcome(await postWebhook(delivery.body, delivery.signature), 'duplicate');
    await expectOutcome(await deliver('checkout.session.completed', paid.session), 'ignored');
    expect(await snapshot(token, order.orderId)).toEqual(before);
  });

  it('grants once when the success page and the webhook race for the same payment', async () => {
    const { token } = await newUser();
    for (let round = 1; round <= 6; round++) {
      const order = await checkout(token);
      const paid = standIn.markPaid(order.sessionId);
      const delivery = signed('checkout.session.completed', paid.session);
      const pages = [1, 2].map(() => call('GET', `/api/v1/orders/${order.orderId}`, { token }));
      // Every other round the success page has reached Stripe before the webhooks leave, so each side wins some rounds.
      if (round % 2 === 0) await until('the success page asking Stripe', () => standIn.requests.some((r) => r.path === `/v1/checkout/sessions/${order.sessionId}`));
      const hooks = [postWebhook(delivery.body, delivery.signature), postWebhook(delivery.body, delivery.signature), deliver('checkout.session.completed', paid.session)];
      expect((await Promise.all([...pages, ...hooks])).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      const lots = await lotsOf(order.orderId);
      expect(lots).toHaveLength(1);
      expect(await rows(`select 1 from credit_events where lot_id = $1 and kind = 'grant'`, [lots[0]!.id])).toHaveLength(1);
      expect(await listed(token, order.orderId)).toMatchObject({ status: 'paid', payment_method: 'Visa •••• 4242' });
      expect(await balance(token)).toBe(500 * round);
    }
  });

  it('refuses deliveries without a valid, recent signature (400), and changes nothing', async () => {
    const { token } = await newUser();
    const order = await checkout(token);
    const { session } = standIn.markPaid(order.sessionId);
    const events = await rows(`select id from payment_events`);
    const good = signed('checkout.session.completed', session);
    const otherSecret = standIn.webhook('checkout.session.completed', session, { secret: `whsec_${randomBytes(16).toString('hex')}` });
    const stale = signed('checkout.session.completed', session, { timestamp: Math.floor(Date.now() / 1000) - 10 * 60 });
    const future = signed('checkout.session.completed', session, { timestamp: Math.floor(Date.now() / 1000) + 10 * 60 });
    const tampered = good.body.replace('"amount_total":999', '"amount_total":99900');
    expect(tampered).not.toBe(good.body);
    const alsoSigned = standIn.sign(good.body, { secret: `whsec_${randomBytes(16).toString('hex')}` });

    // No signature, another secret, signed 10 minutes ago or 10 minutes ahead, a body changed after
    // signing, a good signature merged with another (one header with two timestamps).
    for (const [body, signature] of [
      [good.body, undefined],
      [otherSecret.body, otherSecret.signature],
      [stale.body, stale.signature],
      [future.body, future.signature],
      [tampered, good.signature],
      [good.body, `${alsoSigned}, ${good.signature}`],
    ] as const) {
      const response = await postWebhook(body, signature);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ errors: [expect.stringMatching(/^Webhook refused/)], code: 'BILLING.INVALID_WEBHOOK' });
    }
    // The Stripe-Signature header sent twice (two header lines): refused too.
    const twice = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(WEBHOOK, app.url);
      const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, 'stripe-signature': [alsoSigned, good.signature] } }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on('error', reject);
      req.end(good.body);
    });
    expect(twice).toEqual({ status: 400, body: expect.stringContaining('BILLING.INVALID_WEBHOOK') });
    expect(await rows(`select id from payment_events`)).toEqual(events);
    expect(await listed(token, order.orderId)).toMatchObject({ status: 'pending' });
    expect(await balance(token)).toBe(0);
    // The very same delivery, signed right, is taken.
    await expectOutcome(await postWebhook(good.body, good.signature), 'applied');
    expect(await balance(token)).toBe(500);
  });

  describe('deliveries out of order', () => {
    it('answers 503 to a refund that comes before its payment, and applies the same delivery after it', async () => {
      const { token } = await newUser();
      const order = await checkout(token);
      const paid = standIn.markPaid(order.sessionId);
      const refund = signed('charge.refunded', chargeRefunded(paid.charge, 999));

      const early = await postWebhook(refund.body, refund.signature);
      expect(early.status).toBe(503);
      expect(await early.json()).toMatchObject({ code: 'BILLING.EVENT_TOO_EARLY' });
      expect(await rows(`select 1 from payment_events where id = $1`, [refund.id])).toHaveLength(0);
      expect(await listed(token, order.orderId)).toMatchObject({ status: 'pending', refunded_cents: 0 });

      await expectOutcome(await deliver('checkout.session.completed', paid.session), 'applied');
      expect(await balance(token)).toBe(500);
      // Stripe's retry of the refund.
      await expectOutcome(await postWebhook(refund.body, refund.signature), 'applied');
      expect(await listed(token, order.orderId)).toMatchObject({ status: 'refunded', refunded_cents: 999 });
      expect(await balance(token)).toBe(0);
    });

    it('ignores an expiry that arrives after the payment', async () => {
      const { token } = await newUser();
      const { orderId, session } = await paidOrder(token);
      await expectOutcome(await deliver('checkout.session.expired', { ...session, status: 'expired' }), 'ignored');
      expect(await listed(token, orderId)).toMatchObject({ status: 'paid' });
      expect(await balance(token)).toBe(500);
    });

    it('waits for a delayed payment method: completed unpaid grants nothing, async_payment_succeeded grants once', async () => {
      const { token } = await newUser();
      const order = await checkout(token);
      const unpaid = { ...standIn.session(order.sessionId), status: 'complete', payment_status: 'unpaid' };
      await expectOutcome(await deliver('checkout.session.completed', unpaid), 'ignored');
      expect(await listed(token, order.orderId)).toMatchObject({ status: 'pending' });
      expect(await balance(token)).toBe(0);

      const { session } = standIn.markPaid(order.sessionId, { type: 'sepa_debit' });
      await expectOutcome(await deliver('checkout.session.async_payment_succeeded', session), 'applied');
      await expectOutcome(await deliver('checkout.session.async_payment_succeeded', session), 'ignored');
      await expectOutcome(await deliver('checkout.session.completed', session), 'ignored');
      expect(await listed(token, order.orderId)).toMatchObject({ status: 'paid', payment_method: 'SEPA Direct Debit' });
      expect(await balance(token)).toBe(500);
      expect(await lotsOf(order.orderId)).toHaveLength(1);
    });
  });

  it('takes back the refunded share of the credits, only from what is unspent, from cumulative refund amounts', async () => {
    const { token } = await newUser();
    const { orderId, charge } = await paidOrder(token);

    const partial = signed('charge.refunded', chargeRefunded(charge, 500));
    await expectOutcome(await postWebhook(partial.body, partial.signature), 'applied');
    expect(await listed(token, orderId)).toMatchObject({ status: 'partially_refunded', refunded_cents: 500 });
    // 500 of 999 cents is 250.25 of 500 credits: 251 taken back.
    expect(await balance(token)).toBe(249);
    expect((await history(token))[0]).toMatchObject({ kind: 'revoke', credits: -251 });

    await spendDownTo(orderId, 49); // 200 of the remaining 249 credits spent
    await expectOutcome(await deliver('charge.refunded', chargeRefunded(charge, 999)), 'applied');
    expect(await listed(token, orderId)).toMatchObject({ status: 'refunded', refunded_cents: 999 });
    // 249 more were owed; only the 49 unspent ones could be taken.
    expect(await balance(token)).toBe(0);
    expect((await history(token))[0]).toMatchObject({ kind: 'revoke', credits: -49 });
    expect(await lotsOf(orderId)).toEqual([expect.objectContaining({ remaining: 0 })]);

    const before = await snapshot(token, orderId);
    await expectOutcome(await deliver('charge.refunded', chargeRefunded(charge, 999)), 'ignored');
    await expectOutcome(await deliver('charge.refunded', chargeRefunded(charge, 500)), 'ignored');
    await expectOutcome(await postWebhook(partial.body, partial.signature), 'duplicate');
    expect(await snapshot(token, orderId)).toEqual(before);
  });

  it('lets an admin refund part of an order through Stripe; others get 403, too much gets 409', async () => {
    const { token } = await newUser();
    const { orderId, paymentIntent, charge } = await paidOrder(token);
    const path = `/api/v1/admin/orders/${orderId}/refund`;

    expect((await call('POST', path, { token, body: { amount_cents: 300 } })).status).toBe(403);
    expect((await call('POST', path, { body: { amount_cents: 300 } })).status).toBe(401);
    expect(await listed(token, orderId)).toMatchObject({ status: 'paid', refunded_cents: 0 });

    const headers = { 'idempotency-key': `ticket-${orderId}` };
    const refunded = await call('POST', path, { token: adminToken, body: { amount_cents: 300 }, headers });
    expect(refunded.status).toBe(200);
    expect(await refunded.json()).toMatchObject({ id: orderId, status: 'partially_refunded', refunded_cents: 300 });
    const sent = standIn.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds');
    expect(sent.at(-1)!.params).toEqual({ payment_intent: paymentIntent, amount: '300' });
    // The admin request's key reaches Stripe, and a retry of the request sends nothing more.
    expect(sent.at(-1)!.idempotencyKey).toBe(`refund-${orderId}-ticket-${orderId}`);
    expect((await call('POST', path, { token: adminToken, body: { amount_cents: 300 }, headers })).status).toBe(200);
    expect(standIn.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds')).toHaveLength(sent.length);
    expect(standIn.charge(charge)).toMatchObject({ amount_refunded: 300 });
    expect(await listed(token, orderId)).toMatchObject({ status: 'partially_refunded', refunded_cents: 300 });
    // 300 of 999 cents is 150.15 of 500 credits: 151 taken back.
    expect(await balance(token)).toBe(349);

    // Stripe's own charge.refunded for that refund follows: already counted.
    await expectOutcome(await deliver('charge.refunded', standIn.charge(charge)!), 'ignored');
    expect(await balance(token)).toBe(349);

    const tooMuch = await call('POST', path, { token: adminToken, body: { amount_cents: 700 }, headers: { 'idempotency-key': `too-much-${orderId}` } });
    expect(tooMuch.status).toBe(409);
    expect(await tooMuch.json()).toMatchObject({ code: 'BILLING.REFUND_NOT_POSSIBLE' });
    expect(sent).toHaveLength(standIn.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds').length);
    expect(await listed(token, orderId)).toMatchObject({ status: 'partially_refunded', refunded_cents: 300 });

    const admin = await read<Paged<OrderView & { user_id: string; email: string | null }>>('/api/v1/admin/orders?status=partially_refunded', adminToken);
    expect(admin.items.map((o) => o.id)).toContain(orderId);
  });

  it('makes one refund at Stripe when one Idempotency-Key arrives for ten orders at once: the others get 409 BILLING.REFUND_KEY_REUSED', async () => {
    const { token } = await newUser();
    const orders = [];
    for (let i = 0; i < 10; i++) orders.push(await paidOrder(token));
    const refundsAtStripe = () => standIn.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds').length;
    const before = refundsAtStripe();
    const headers = { 'idempotency-key': `shared-${orders[0]!.orderId}` };
    const answers = await Promise.all(
      orders.map(({ orderId }) => call('POST', `/api/v1/admin/orders/${orderId}/refund`, { token: adminToken, body: { amount_cents: 100 }, headers })),
    );
    const statuses = answers.map((a) => a.status);
    // Before: the key was checked but not claimed, so the gateway was called for several orders, and 500s.
    expect(statuses.sort()).toEqual([200, ...Array(9).fill(409)]);
    for (const a of answers.filter((r) => r.status === 409)) expect(await a.json()).toMatchObject({ code: 'BILLING.REFUND_KEY_REUSED' });
    expect(refundsAtStripe() - before).toBe(1);
    expect(await rows(`select order_id from order_refunds where idempotency_key = $1`, [headers['idempotency-key']])).toHaveLength(1);
  });

  it('takes back what remains unspent of a disputed order, and nothing of other credits', async () => {
    const { token, email } = await newUser();
    const { orderId, charge } = await paidOrder(token);
    const grant = await call('POST', '/api/v1/admin/credits', { token: adminToken, body: { email, credits: 7, reason: 'Goodwill for testing' } });
    expect(grant.status).toBe(201);
    await spendDownTo(orderId, 120); // 380 of the pack's credits spent
    expect(await balance(token)).toBe(127);

    await expectOutcome(await deliver('charge.dispute.created', standIn.dispute(charge)), 'applied');
    expect(await listed(token, orderId)).toMatchObject({ status: 'disputed' });
    expect(await balance(token)).toBe(7);
    expect((await history(token))[0]).toMatchObject({ kind: 'revoke', credits: -120 });
    await expectOutcome(await deliver('charge.dispute.created', standIn.dispute(charge, { withPaymentIntent: false })), 'ignored');
    expect(await balance(token)).toBe(7);
  });

  it('acknowledges signed events it cannot read, or of the live mode, with 200: applied never, logged with id and type, listed for the admin', async () => {
    const { token } = await newUser();
    const order = await checkout(token);
    const { session, charge } = standIn.markPaid(order.sessionId);
    const envelope = (type: string, object: unknown, extra: object = {}) =>
      JSON.stringify({ id: `evt_test_odd${randomBytes(6).toString('hex')}`, object: 'event', type, livemode: false, data: { object }, ...extra });
    const odd = [
      JSON.stringify({ id: `evt_test_odd${randomBytes(6).toString('hex')}`, object: 'event', type: 'checkout.session.completed', livemode: false, data: {} }),
      envelope('checkout.session.completed', null),
      envelope('checkout.session.completed', { ...session, amount_total: '999' }),
      envelope('checkout.session.completed', { ...session, amount_total: 1e20 }),
      envelope('charge.refunded', { ...standIn.charge(charge), amount_refunded: 1e15 }),
      envelope('charge.dispute.created', { id: 'dp_test_x', object: 'mystery' }),
      envelope('checkout.session.expired', { id: 42, object: 'checkout.session' }),
      envelope('checkout.session.completed', { ...session, metadata: null, amount_total: null, payment_status: 7 }),
      // No id or type to name it by: kept under the hash of its body.
      JSON.stringify([{ object: 'event' }]),
    ];
    const live = standIn.webhook('checkout.session.completed', session, { secret: WEBHOOK_SECRET, livemode: true });
    for (const body of [...odd, live.body]) {
      const response = await postWebhook(body, standIn.sign(body, { secret: WEBHOOK_SECRET }));
      expect({ body, status: response.status, answer: await response.json() }).toEqual({ body, status: 200, answer: { received: true, outcome: 'refused' } });
    }
    // Stripe's retry of one is a duplicate, still 200.
    await expectOutcome(await postWebhook(odd[0]!, standIn.sign(odd[0]!, { secret: WEBHOOK_SECRET })), 'duplicate');
    expect(await listed(token, order.orderId)).toMatchObject({ status: 'pending' });
    expect(await balance(token)).toBe(0);

    const refused = await read<Paged<{ id: string; type: string; problem: string; received_at: string }>>('/api/v1/admin/payment-events/refused', adminToken);
    expect(refused.items.find((e) => e.id === live.id)).toEqual({ id: live.id, type: 'checkout.session.completed', problem: "a live mode event, and this site's key is test mode", received_at: expect.any(String) });
    for (const body of odd.slice(0, -1)) {
      const { id, type } = JSON.parse(body) as { id: string; type: string };
      expect(refused.items.find((e) => e.id === id)).toMatchObject({ type, problem: expect.stringMatching(/^unreadable event: /) });
    }
    expect(refused.items.some((e) => e.id.startsWith('unreadable:') && e.type === 'unknown')).toBe(true);
    expect((await call('GET', '/api/v1/admin/payment-events/refused', { token })).status).toBe(403);
    // And on the admin's orders screen.
    const screen = await fetch(`${app.url}/admin/orders`, { headers: { 'x-forwarded-for': ip, accept: 'text/html', cookie: `token=${adminToken}` } });
    expect(screen.status).toBe(200);
    const html = await screen.text();
    expect(html).toContain('Payment events not applied');
    expect(html).toContain(live.id);
    // Logged with the event's id and type, as a warning.
    await until('the refusal in the log', () => app.stdout().includes(`Webhook event ${live.id} (checkout.session.completed) refused`));
    // The same payment, as a test event, is taken.
    await expectOutcome(await deliver('checkout.session.completed', session), 'applied');
    expect(await balance(token)).toBe(500);
  });

  describe('money after the payment: won disputes, failed refunds, refunds short of spent credits', () => {
    it('gives back what a dispute took when it closes won, once, and shows it on /billing and /usage', async () => {
      const { token } = await newUser();
      const { orderId, charge } = await paidOrder(token);
      await spendDownTo(orderId, 120); // 380 spent
      const dispute = standIn.dispute(charge);
      await expectOutcome(await deliver('charge.dispute.created', dispute), 'applied');
      expect(await balance(token)).toBe(0);

      const won = signed('charge.dispute.closed', { ...dispute, status: 'won' });
      await expectOutcome(await postWebhook(won.body, won.signature), 'applied');
      expect(await balance(token)).toBe(120);
      const order = await listed(token, orderId);
      expect(order).toMatchObject({ status: 'paid', dispute_won_at: expect.any(String), credits_to_take_back: 0, credits_taken_back: 0 });
      expect((await history(token))[0]).toMatchObject({ kind: 'restore', credits: 120, description: `Dispute of ${order.number} closed, the payment stands: credits given back` });

      const before = await snapshot(token, orderId);
      await expectOutcome(await postWebhook(won.body, won.signature), 'duplicate');
      // The same fact in another event (another id): nothing more; a lost closing changes nothing either.
      await expectOutcome(await deliver('charge.dispute.closed', { ...dispute, status: 'won' }), 'ignored');
      await expectOutcome(await deliver('charge.dispute.closed', { ...dispute, status: 'lost' }), 'ignored');
      expect(await snapshot(token, orderId)).toEqual(before);
    });

    it("gives back the credits of an admin's refund that failed at the bank, once, whichever event says so", async () => {
      const { token } = await newUser();
      const { orderId } = await paidOrder(token);
      const refund = await call('POST', `/api/v1/admin/orders/${orderId}/refund`, { token: adminToken, body: {}, headers: { 'idempotency-key': `full-${orderId}` } });
      expect(refund.status).toBe(200);
      expect(await balance(token)).toBe(0);

      const failed = standIn.failRefund(standIn.refunds().at(-1)!.id as string);
      const event = signed('refund.failed', failed);
      await expectOutcome(await postWebhook(event.body, event.signature), 'applied');
      expect(await balance(token)).toBe(500);
      const order = await listed(token, orderId);
      expect(order).toMatchObject({ status: 'paid', refunded_cents: 0, refund_failed_cents: 999, credits_taken_back: 0 });
      expect((await history(token))[0]).toMatchObject({ kind: 'restore', credits: 500, description: `Refund of ${order.number} failed: credits given back` });

      const before = await snapshot(token, orderId);
      await expectOutcome(await postWebhook(event.body, event.signature), 'duplicate');
      await expectOutcome(await deliver('refund.updated', failed), 'ignored');
      expect(await snapshot(token, orderId)).toEqual(before);
    });

    it('records what a refund actually took back when some credits were already spent', async () => {
      const { token, email } = await newUser();
      const { orderId, charge } = await paidOrder(token);
      await spendDownTo(orderId, 2); // 498 of 500 spent
      await expectOutcome(await deliver('charge.refunded', chargeRefunded(charge, 999)), 'applied');
      const order = await listed(token, orderId);
      expect(order).toMatchObject({ status: 'refunded', credits_to_take_back: 500, credits_taken_back: 2 });
      expect((await history(token))[0]).toMatchObject({ kind: 'revoke', credits: -2, description: `Refund of ${order.number}: 2 of 500 credits taken back, 498 already used` });
      const detail = await read<{ credits_revoked: number; order: { email: string } }>(`/api/v1/admin/orders/${orderId}`, adminToken);
      expect(detail).toMatchObject({ credits_revoked: 2, order: { email } });
    });
  });

  describe('open checkouts', () => {
    const sessionsFor = (email: string) => standIn.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions' && r.params.customer_email === email).length;

    it('keeps at most 3 open per user, even in a burst: the others answer 429 with Retry-After and reach no Stripe', async () => {
      const { token, email } = await newUser();
      const burst = await Promise.all(Array.from({ length: 10 }, () => call('POST', '/api/v1/checkout', { token, body: { pack_id: 'starter' } })));
      expect(burst.map((r) => r.status).sort()).toEqual([201, 201, 201, 429, 429, 429, 429, 429, 429, 429]);
      const refused = burst.find((r) => r.status === 429)!;
      expect(await refused.json()).toEqual({ errors: ['You have 3 unfinished checkouts. Finish or cancel one on your billing page, then try again.'], code: 'BILLING.TOO_MANY_OPEN_CHECKOUTS' });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(86_400 - 120);
      expect(retryAfter).toBeLessThanOrEqual(86_400);
      expect(sessionsFor(email)).toBe(3);
      expect((await read<Paged<OrderView>>('/api/v1/orders', token)).total).toBe(3);

      // Canceling one on /billing frees a place.
      const [open] = (await read<Paged<OrderView>>('/api/v1/orders', token)).items;
      expect((await call('POST', `/api/v1/orders/${open!.id}/cancel`, { token })).status).toBe(200);
      await checkout(token, { pack_id: 'starter' });
      expect((await call('POST', '/api/v1/checkout', { token, body: { pack_id: 'starter' } })).status).toBe(429);
      expect(sessionsFor(email)).toBe(4);
    });

    it('reads a pending order from the database, asking Stripe at most 3 times, spaced out', async () => {
      const spaced = await site.startApp({ STRIPE_LOOKUP_DELAYS_MS: '2000,3000,4000' });
      const { token } = await newUser();
      const order = await checkout(token);
      const lookups = () => standIn.requests.filter((r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${order.sessionId}`).length;
      const page = async () => {
        const response = await call('GET', `/api/v1/orders/${order.orderId}`, { token, base: spaced.url });
        expect(response.status).toBe(200);
        return (await response.json()) as OrderView;
      };
      // The success page's first polls: the database only.
      for (let i = 0; i < 3; i++) expect(await page()).toMatchObject({ status: 'pending' });
      expect(lookups()).toBe(0);
      // Polling every 250 ms, 2, 3 and 4 s after the order: three look-ups, then never again.
      await until('three look-ups at Stripe', async () => (await page(), lookups() === 3), 20_000, 250);
      standIn.markPaid(order.sessionId);
      for (let i = 0; i < 8; i++) expect(await page()).toMatchObject({ status: 'pending' });
      expect(lookups()).toBe(3);
      // The webhook is the news.
      await expectOutcome(await deliver('checkout.session.completed', standIn.session(order.sessionId)), 'applied');
      expect(await page()).toMatchObject({ status: 'paid' });
      expect(lookups()).toBe(3);
    });
  });

  it('takes a donation of whole dollars: $2 is 200 cents at Stripe and 100 credits valid a year', async () => {
    const { token } = await newUser();
    const { orderId } = await paidOrder(token, { donation_usd: 2 });
    const sent = standIn.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.method === 'POST').at(-1)!;
    expect(sent.params).toMatchObject({ line_items: [{ price_data: { currency: 'usd', unit_amount: '200' } }], metadata: { order_id: orderId } });
    expect(await listed(token, orderId)).toMatchObject({ kind: 'donation', status: 'paid', amount_cents: 200, credits: 100 });
    expect(await balance(token)).toBe(100);
    const [lot] = await lotsOf(orderId);
    const days = (lot!.expires_at.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThan(366);
  });

  it('answers bad input with a clear 4xx in the API error shape, and sells nothing for it', async () => {
    const { token } = await newUser();
    const unknown = await call('POST', '/api/v1/checkout', { token, body: { pack_id: 'mega' } });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ errors: ['There is no such credit pack.'], code: 'BILLING.UNKNOWN_PACK' });
    for (const [body, message] of [
      [{ donation_usd: 0 }, 'donation_usd: Donations start at $1'],
      [{ donation_usd: 501 }, 'donation_usd: Donations are at most $500'],
      [{ donation_usd: 1.5 }, 'donation_usd: Enter a whole number of dollars'],
      [{ donation_usd: '2' }, 'donation_usd: Enter a whole number of dollars'],
      [{ pack_id: 'starter', donation_usd: 2 }, 'Send pack_id, or donation_usd in whole dollars'],
      [{}, 'Send pack_id, or donation_usd in whole dollars'],
      // The price never comes from the browser: extra fields are refused, not read.
      [{ pack_id: 'starter', amount_cents: 1 }, 'Unrecognized key: "amount_cents"'],
    ] as const) {
      const response = await call('POST', '/api/v1/checkout', { token, body });
      expect({ body, status: response.status, answer: await response.json() }).toEqual({ body, status: 400, answer: { errors: [message], code: 'REQUEST.INVALID' } });
    }
    expect((await read<Paged<OrderView>>('/api/v1/orders', token)).total).toBe(0);

    const other = await newUser();
    const { orderId } = await checkout(other.token);
    const theirs = await call('GET', `/api/v1/orders/${orderId}`, { token });
    const missing = await call('GET', `/api/v1/orders/${randomUUID()}`, { token });
    expect([theirs.status, missing.status]).toEqual([404, 404]);
    expect(await theirs.json()).toEqual(await missing.json());
    expect((await call('GET', '/api/v1/orders/not-a-uuid', { token })).status).toBe(404);

    for (const [method, path] of [['POST', '/api/v1/checkout'], ['GET', '/api/v1/orders'], ['GET', `/api/v1/orders/${orderId}`], ['GET', '/api/v1/credits'], ['GET', '/api/v1/credits/history']] as const) {
      const response = await call(method, path, method === 'POST' ? { body: { pack_id: 'starter' } } : {});
      expect({ path, status: response.status }).toEqual({ path, status: 401 });
    }
  });

  it('grants nothing for less than the price, whatever the metadata says, and says so when Stripe is down', async () => {
    const { token } = await newUser();
    const order = await checkout(token);
    const { session } = standIn.markPaid(order.sessionId);
    await expectOutcome(await deliver('checkout.session.completed', { ...session, amount_total: 99 }), 'ignored');
    expect(await listed(token, order.orderId)).toMatchObject({ status: 'pending' });
    expect(await balance(token)).toBe(0);
    await expectOutcome(await deliver('checkout.session.completed', { ...session, metadata: { order_id: order.orderId, credits: '100000' } }), 'applied');
    expect(await balance(token)).toBe(500);

    standIn.state.failing = true;
    const down = await call('POST', '/api/v1/checkout', { token, body: { pack_id: 'starter' } }).finally(() => (standIn.state.failing = false));
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ code: 'BILLING.GATEWAY_UNAVAILABLE' });
    const [latest] = (await read<Paged<OrderView>>('/api/v1/orders', token)).items;
    expect(latest).toMatchObject({ amount_cents: 299, status: 'failed' });
  });

  it('has none of it with payments off: a second app without HAS_PAYMENT answers 404', async () => {
    const { token } = await newUser();
    const paymentsOff = await site.startApp({ HAS_PAYMENT: 'false' });
    const base = paymentsOff.url;
    const order = await checkout(token); // on the first app, still on
    const { session } = standIn.markPaid(order.sessionId);
    const delivery = signed('checkout.session.completed', session);

    for (const [method, path, body] of [
      ['GET', '/api/v1/pricing'],
      ['POST', '/api/v1/checkout', { pack_id: 'starter' }],
      ['GET', '/api/v1/credits'],
      ['GET', '/api/v1/orders'],
      ['GET', `/api/v1/orders/${order.orderId}`],
    ] as const) {
      const response = await call(method, path, { token, body, base });
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
    }
    const hook = await postWebhook(delivery.body, delivery.signature, base);
    expect(hook.status).toBe(404);
    // The page too (the first app, payments on, shows it).
    const page = (from: string) => fetch(`${from}/pricing`, { headers: { 'x-forwarded-for': ip, accept: 'text/html' } });
    expect((await page(app.url)).status).toBe(200);
    const off = await page(base);
    expect(off.status).toBe(404);
    expect(off.headers.get('content-type')).toContain('text/html');
    // The signed delivery was refused, not applied.
    expect(await listed(token, order.orderId)).toMatchObject({ status: 'pending' });
    expect(await balance(token)).toBe(0);
  });
});
