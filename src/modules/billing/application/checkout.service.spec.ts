import { Logger } from '@nestjs/common';
import { PaymentsDisabledError } from 'src/modules/credits';
import { OrderNotFoundError, OrderNotPayableError, TestCheckoutUnavailableError, TooManyOpenCheckoutsError, UnknownPackError } from '../domain/billing.errors';
import { PENDING_ORDER_TTL_MS, TEST_PAYMENT_METHOD } from './checkout.service';
import { billingTestBed, type BillingTestBed, paid, USER } from '../testing/billing-test-bed';
import { PACKS } from '../testing/fixed-pricing-catalog';

describe('CheckoutService', () => {
  let orders: BillingTestBed['orders'];
  let ledger: BillingTestBed['ledger'];
  let gateway: BillingTestBed['gateway'];
  let checkouts: BillingTestBed['checkouts'];
  let events: BillingTestBed['events'];
  let admin: BillingTestBed['admin'];
  let checkout: BillingTestBed['checkout'];

  function setUp(...args: Parameters<typeof billingTestBed>) {
    ({ orders, ledger, gateway, checkouts, events, admin, checkout } = billingTestBed(...args));
  }

  beforeEach(() => {
    setUp();
    for (const level of ['log', 'warn', 'error'] as const) jest.spyOn(Logger.prototype, level).mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('has no pricing and refuses every payment call while payments are off', async () => {
    setUp('stripe', { HAS_PAYMENT: 'false' });
    expect(checkouts.pricing()).toBeNull();
    await expect(checkouts.checkout(USER, { pack_id: 'starter' })).rejects.toBeInstanceOf(PaymentsDisabledError);
    await expect(checkouts.listOrders(USER.id, 1)).rejects.toBeInstanceOf(PaymentsDisabledError);
    await expect(events.handleWebhook(Buffer.from('{}'), 'sig')).rejects.toBeInstanceOf(PaymentsDisabledError);
  });

  it('prices from the catalog: packs, the trial, donations, and test mode with the local checkout', () => {
    expect(checkouts.pricing()).toMatchObject({ packs: PACKS, test_mode: false, trial: { credits: 10, days: 14 }, donation: { credits_per_dollar: 50, min_usd: 1, max_usd: 500 } });
    setUp('local');
    expect(checkouts.pricing()!.test_mode).toBe(true);
  });

  it('creates a pending order priced from the catalog, never from the client, and hands the gateway our URLs', async () => {
    const order = await checkout({ pack_id: 'popular' });
    expect(order).toMatchObject({ userId: USER.id, kind: 'pack', packId: 'popular', credits: 500, validityDays: 90, amountCents: 999, status: 'pending', gateway: 'stripe' });
    expect(order.number).toMatch(/^ORD-[0-9A-Z]{8}$/);
    expect(order.gatewaySessionId).toBe(`cs_${order.id}`);
    expect(gateway.checkouts[0]).toMatchObject({ customerEmail: USER.email, successUrl: `https://guides.example/payment/success?order=${order.id}`, cancelUrl: 'https://guides.example/pricing' });

    const donation = await checkout({ donation_usd: 2 });
    expect(donation).toMatchObject({ kind: 'donation', packId: null, credits: 100, amountCents: 200, validityDays: 365, description: 'Donation of $2: 100 credits' });
    await expect(checkouts.checkout(USER, { pack_id: 'free-money' })).rejects.toBeInstanceOf(UnknownPackError);
  });

  it('marks the order failed when the gateway cannot start the checkout', async () => {
    gateway.failing = true;
    await expect(checkouts.checkout(USER, { pack_id: 'starter' })).rejects.toThrow('gateway down');
    expect(orders.rows.map((o) => o.status)).toEqual(['failed']);
  });

  it('expires only pending orders older than a day', async () => {
    await checkout();
    const old = await checkout();
    orders.rows.find((o) => o.id === old.id)!.createdAt = new Date(Date.now() - PENDING_ORDER_TTL_MS - 1000);
    expect(await checkouts.expireStalePending()).toBe(1);
    expect(orders.rows.map((o) => o.status).sort()).toEqual(['expired', 'pending']);
  });

  it("pays through the local test checkout only, for the buyer's own pending order, once", async () => {
    const stripeOrder = await checkout();
    await expect(checkouts.testPayment(USER.id, stripeOrder.id, 'paid')).rejects.toBeInstanceOf(TestCheckoutUnavailableError);

    setUp('local');
    const order = await checkout();
    await expect(checkouts.testPayment('someone-else', order.id, 'paid')).rejects.toBeInstanceOf(OrderNotFoundError);
    expect(await checkouts.testPayment(USER.id, order.id, 'paid')).toMatchObject({ status: 'paid', payment_method: TEST_PAYMENT_METHOD, test: true });
    // Pressing Pay again (a reload) changes nothing; Cancel after paying is refused.
    expect(await checkouts.testPayment(USER.id, order.id, 'paid')).toMatchObject({ status: 'paid' });
    await expect(checkouts.testPayment(USER.id, order.id, 'canceled')).rejects.toBeInstanceOf(OrderNotPayableError);
    expect(await ledger.balance(USER.id)).toBe(100);

    const canceled = await checkout();
    expect(await checkouts.testPayment(USER.id, canceled.id, 'canceled')).toMatchObject({ status: 'canceled' });
    await expect(checkouts.testPayment(USER.id, canceled.id, 'paid')).rejects.toBeInstanceOf(OrderNotPayableError);
  });

  it('reads a pending order from the database, and asks the gateway at most three times, 5 s, 15 s and 45 s after the order', async () => {
    const order = await checkout();
    const row = orders.rows.find((o) => o.id === order.id)!;
    const age = (ms: number) => (row.createdAt = new Date(Date.now() - ms));
    // The success page polls every 2 s: the first 5 s never reach Stripe.
    for (let i = 0; i < 3; i++) expect(await checkouts.order(USER.id, order.id)).toMatchObject({ status: 'pending' });
    expect(gateway.lookupCalls).toBe(0);
    age(6_000);
    for (let i = 0; i < 3; i++) await checkouts.order(USER.id, order.id);
    expect(gateway.lookupCalls).toBe(1);
    age(16_000);
    for (let i = 0; i < 3; i++) await checkouts.order(USER.id, order.id);
    expect(gateway.lookupCalls).toBe(2);
    age(46_000);
    await checkouts.order(USER.id, order.id);
    age(3_600_000);
    for (let i = 0; i < 5; i++) await checkouts.order(USER.id, order.id);
    expect(gateway.lookupCalls).toBe(3);
    // The webhook is the news from then on.
    expect(await events.applyUpdate('evt_webhook', paid(order))).toBe('applied');
    expect(await checkouts.order(USER.id, order.id)).toMatchObject({ status: 'paid' });
    expect(gateway.lookupCalls).toBe(3);
  });

  it('fulfils a pending order from a look-up when the webhook is late, once', async () => {
    const order = await checkout();
    orders.rows.find((o) => o.id === order.id)!.createdAt = new Date(Date.now() - 6_000);
    gateway.lookups.set(order.gatewaySessionId!, paid(order));
    expect(await checkouts.order(USER.id, order.id)).toMatchObject({ status: 'paid', credits: 100 });
    expect(await ledger.balance(USER.id)).toBe(100);
    // The webhook arriving afterwards grants nothing more.
    expect(await events.applyUpdate('evt_webhook', paid(order))).toBe('ignored');
    expect(await ledger.balance(USER.id)).toBe(100);
    await expect(checkouts.order('someone-else', order.id)).rejects.toBeInstanceOf(OrderNotFoundError);
  });

  it('keeps at most 3 checkouts open per user: a 4th answers 429 with Retry-After until one is canceled or a day old', async () => {
    const open = [await checkout(), await checkout(), await checkout()];
    const refused = await checkouts.checkout(USER, { pack_id: 'starter' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TooManyOpenCheckoutsError);
    expect(refused).toMatchObject({ code: 'BILLING.TOO_MANY_OPEN_CHECKOUTS', kind: 'rate_limited', message: 'You have 3 unfinished checkouts. Finish or cancel one on your billing page, then try again.' });
    // Until the oldest one's checkout session expires, a day after it was made.
    expect((refused as TooManyOpenCheckoutsError).retryAfterSeconds).toBeGreaterThan(86_400 - 60);
    expect((refused as TooManyOpenCheckoutsError).retryAfterSeconds).toBeLessThanOrEqual(86_400);
    expect(gateway.checkouts).toHaveLength(3);
    // Someone else is not counted against this user.
    await checkouts.checkout({ id: 'user-2', email: 'other@example.com' }, { pack_id: 'starter' });
    // Canceled, or paid: a place again.
    await checkouts.cancelCheckout(USER.id, open[0]!.id);
    await events.applyUpdate('evt_paid', paid(open[1]!));
    await checkout();
    await checkout();
    await expect(checkouts.checkout(USER, { pack_id: 'starter' })).rejects.toBeInstanceOf(TooManyOpenCheckoutsError);
    // A pending order older than a checkout session lives is not open any more.
    orders.rows.find((o) => o.id === open[2]!.id)!.createdAt = new Date(Date.now() - PENDING_ORDER_TTL_MS - 1000);
    await checkout();
  });

  it("lists a user's orders twenty a page, newest first", async () => {
    setUp('stripe', { CHECKOUT_MAX_OPEN: '30' });
    for (let i = 0; i < 21; i++) await checkout();
    const page = await checkouts.listOrders(USER.id, 1);
    expect(page).toMatchObject({ page: 1, pages: 2, total: 21 });
    expect(page.items[0]!.id).toBe(orders.rows.at(-1)!.id);
    expect((await admin.listAllOrders({ status: 'paid' }, 1)).total).toBe(0);
  });
});
