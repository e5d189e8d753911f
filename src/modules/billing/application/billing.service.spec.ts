import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { loadConfig } from 'src/config/app-config';
import type { CreditPack, OrderStatus } from 'src/contracts/billing';
import type { SessionAuthenticator } from 'src/modules/auth/auth-guards.module';
import { PaymentsDisabledError } from 'src/modules/credits/domain/credits.errors';
import { InMemoryCreditLedger } from 'test/fakes/in-memory-credit-ledger.adapter';
import {
  OrderNotFoundError,
  OrderNotPayableError,
  PaymentEventTooEarlyError,
  RefundNotPossibleError,
  TestCheckoutUnavailableError,
  TooManyOpenCheckoutsError,
  UnknownPackError,
} from '../domain/billing.errors';
import { Order, orderLotRef } from '../domain/order';
import { newOrderNumber } from '../domain/order-number';
import { OrderRepository, type NewOrder, type OrderChanges, type OrderRefund, type OrderSearch } from '../domain/order-repository.port';
import { PaymentGateway, type CheckoutRequest, type GatewayEvent, type PaymentUpdate } from '../domain/payment-gateway.port';
import { PricingCatalog } from '../domain/pricing-catalog.port';
import { BillingService, PENDING_ORDER_TTL_MS, TEST_PAYMENT_METHOD } from './billing.service';

// ---------------------------------------------------------------------------------------------
// In-memory ports. The repository applies conditional updates like the SQL one; the gateway
// records what it was asked and answers what the test sets. test/billing-*.e2e-spec prove the SQL
// and Stripe's real SDK.
// ---------------------------------------------------------------------------------------------

class InMemoryOrderRepository extends OrderRepository {
  readonly rows: Order[] = [];
  readonly events = new Set<string>();

  /** A failure rolls back the orders and the recorded events, as the database transaction does. */
  async inTransaction<T>(work: () => Promise<T>): Promise<T> {
    const rows = this.rows.map((row) => ({ ...row }));
    const events = new Set(this.events);
    try {
      return await work();
    } catch (error) {
      this.rows.splice(0, this.rows.length, ...rows);
      this.events.clear();
      events.forEach((id) => this.events.add(id));
      throw error;
    }
  }
  async create(order: NewOrder): Promise<Order> {
    const now = new Date();
    const row: Order = Object.assign(new Order(), order, {
      id: randomUUID(),
      number: newOrderNumber(),
      refundedCents: 0,
      creditsRevoked: 0,
      gatewayLookups: 0,
      disputeWonAt: null,
      refundFailedCents: 0,
      status: 'pending' as const,
      gatewaySessionId: null,
      gatewayPaymentRef: null,
      paymentMethod: null,
      createdAt: now,
      paidAt: null,
      updatedAt: now,
    });
    this.rows.push(row);
    return { ...row };
  }
  async createIfFewerOpen(order: NewOrder, limit: number, withinMs: number) {
    return (await this.openOrders(order.userId, withinMs)).length >= limit ? null : this.create(order);
  }
  async openOrders(userId: string, withinMs: number) {
    return this.rows.filter((o) => o.userId === userId && o.status === 'pending' && o.createdAt.getTime() > Date.now() - withinMs).map((o) => ({ ...o }));
  }
  async claimLookup(id: string, done: number, afterMs: number) {
    const row = this.rows.find((o) => o.id === id);
    if (!row || row.gatewayLookups !== done || Date.now() - row.createdAt.getTime() < afterMs) return false;
    row.gatewayLookups++;
    return true;
  }
  readonly refused: { id: string; type: string; problem: string; receivedAt: Date }[] = [];
  async refusedEvents() {
    return { items: [...this.refused].reverse(), total: this.refused.length };
  }
  async findById(id: string) {
    const row = this.rows.find((o) => o.id === id);
    return row ? { ...row } : null;
  }
  lockById(id: string) {
    return this.findById(id);
  }
  async lockBySession(sessionId: string) {
    const row = this.rows.find((o) => o.gatewaySessionId === sessionId);
    return row ? { ...row } : null;
  }
  async lockByPaymentRef(paymentRef: string) {
    const row = this.rows.find((o) => o.gatewayPaymentRef === paymentRef);
    return row ? { ...row } : null;
  }
  async update(id: string, changes: OrderChanges, from?: readonly OrderStatus[]) {
    const row = this.rows.find((o) => o.id === id);
    if (!row || (from && !from.includes(row.status))) return false;
    Object.assign(row, changes, { updatedAt: new Date() });
    return true;
  }
  async listForUser(userId: string, page: number, pageSize: number) {
    const mine = this.rows.filter((o) => o.userId === userId).reverse();
    return { items: mine.slice((page - 1) * pageSize, page * pageSize), total: mine.length };
  }
  async list(filter: { status?: OrderStatus }, page: number, pageSize: number) {
    const all = this.rows.filter((o) => !filter.status || o.status === filter.status).reverse();
    return { items: all.slice((page - 1) * pageSize, page * pageSize), total: all.length };
  }
  async recordEvent(id: string, type: string, problem?: string) {
    if (this.events.has(id)) return false;
    this.events.add(id);
    if (problem) this.refused.push({ id, type, problem, receivedAt: new Date() });
    return true;
  }
  async expirePending(before: Date) {
    const stale = this.rows.filter((o) => o.status === 'pending' && o.createdAt < before);
    for (const row of stale) row.status = 'expired';
    return stale.length;
  }
  readonly refundRows: OrderRefund[] = [];
  async linkEvent() {}
  async findRefund(key: string) {
    return this.refundRows.find((r) => r.idempotencyKey === key) ?? null;
  }
  async recordRefund(refund: Omit<OrderRefund, 'createdAt'>) {
    this.refundRows.push({ ...refund, createdAt: new Date() });
  }
  async trail(orderId: string) {
    return { refunds: this.refundRows.filter((r) => r.orderId === orderId), events: [] };
  }
  async search(filter: OrderSearch, page: number, pageSize: number) {
    const { items, total } = await this.list(filter, page, pageSize);
    return { items: items.map((o) => ({ ...o, email: null })), total };
  }
}

class FakeGateway extends PaymentGateway {
  readonly checkouts: CheckoutRequest[] = [];
  readonly refunds: { orderId: string; amountCents: number }[] = [];
  failing = false;
  lookups = new Map<string, PaymentUpdate>();
  lookupCalls = 0;
  constructor(readonly kind: 'stripe' | 'local') {
    super();
  }
  async createCheckout(request: CheckoutRequest) {
    if (this.failing) throw new Error('gateway down');
    this.checkouts.push(request);
    return { sessionId: `cs_${request.order.id}`, url: `https://pay.example/${request.order.id}` };
  }
  async parseWebhook(rawBody: Buffer): Promise<GatewayEvent> {
    return JSON.parse(rawBody.toString()) as GatewayEvent;
  }
  async lookup(sessionId: string) {
    this.lookupCalls++;
    return this.lookups.get(sessionId) ?? null;
  }
  async refund(order: Order, amountCents: number) {
    this.refunds.push({ orderId: order.id, amountCents });
    return { refundedCents: order.refundedCents + amountCents };
  }
  async resumeUrl(order: Order) {
    return `https://pay.example/${order.id}`;
  }
  async cancel() {}
}

const PACKS: CreditPack[] = [
  { id: 'starter', name: 'Starter', credits: 100, validity_days: 30, price_cents: 299, currency: 'usd', most_popular: false, features: [] },
  { id: 'popular', name: 'Popular', credits: 500, validity_days: 90, price_cents: 999, currency: 'usd', most_popular: true, features: [] },
];

class FixedCatalog extends PricingCatalog {
  packs() {
    return PACKS;
  }
}

const USER = { id: 'user-1', email: 'buyer@example.com' };

describe('BillingService', () => {
  let orders: InMemoryOrderRepository;
  let ledger: InMemoryCreditLedger;
  let gateway: FakeGateway;
  let billing: BillingService;

  function setUp(kind: 'stripe' | 'local' = 'stripe', env: Record<string, string> = {}) {
    orders = new InMemoryOrderRepository();
    ledger = new InMemoryCreditLedger();
    gateway = new FakeGateway(kind);
    const accounts = { emailsOf: async () => new Map<string, string>() } as unknown as SessionAuthenticator;
    billing = new BillingService(
      orders,
      gateway,
      new FixedCatalog(),
      ledger,
      loadConfig({}, { HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true', PUBLIC_URL: 'https://guides.example', ...env }),
      accounts,
    );
  }

  beforeEach(() => {
    setUp();
    for (const level of ['log', 'warn', 'error'] as const) jest.spyOn(Logger.prototype, level).mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  /** A checkout of `input` and its gateway session id. */
  async function checkout(input: { pack_id?: string; donation_usd?: number } = { pack_id: 'starter' }) {
    const { order_id } = await billing.checkout(USER, input);
    return (await orders.findById(order_id))!;
  }
  const paid = (order: Order, extra: Partial<Extract<PaymentUpdate, { type: 'paid' }>> = {}): PaymentUpdate => ({
    type: 'paid',
    sessionId: order.gatewaySessionId!,
    amountPaidCents: order.amountCents,
    currency: 'usd',
    paymentRef: `pi_${order.id}`,
    paymentMethod: 'Visa •••• 4242',
    ...extra,
  });

  it('has no pricing and refuses every payment call while payments are off', async () => {
    setUp('stripe', { HAS_PAYMENT: 'false' });
    expect(billing.pricing()).toBeNull();
    await expect(billing.checkout(USER, { pack_id: 'starter' })).rejects.toBeInstanceOf(PaymentsDisabledError);
    await expect(billing.listOrders(USER.id, 1)).rejects.toBeInstanceOf(PaymentsDisabledError);
    await expect(billing.handleWebhook(Buffer.from('{}'), 'sig')).rejects.toBeInstanceOf(PaymentsDisabledError);
  });

  it('prices from the catalog: packs, the trial, donations, and test mode with the local checkout', () => {
    expect(billing.pricing()).toMatchObject({ packs: PACKS, test_mode: false, trial: { credits: 10, days: 14 }, donation: { credits_per_dollar: 50, min_usd: 1, max_usd: 500 } });
    setUp('local');
    expect(billing.pricing()!.test_mode).toBe(true);
  });

  it('creates a pending order priced from the catalog, never from the client, and hands the gateway our URLs', async () => {
    const order = await checkout({ pack_id: 'popular' });
    expect(order).toMatchObject({ userId: USER.id, kind: 'pack', packId: 'popular', credits: 500, validityDays: 90, amountCents: 999, status: 'pending', gateway: 'stripe' });
    expect(order.number).toMatch(/^ORD-[0-9A-Z]{8}$/);
    expect(order.gatewaySessionId).toBe(`cs_${order.id}`);
    expect(gateway.checkouts[0]).toMatchObject({ customerEmail: USER.email, successUrl: `https://guides.example/payment/success?order=${order.id}`, cancelUrl: 'https://guides.example/pricing' });

    const donation = await checkout({ donation_usd: 2 });
    expect(donation).toMatchObject({ kind: 'donation', packId: null, credits: 100, amountCents: 200, validityDays: 365, description: 'Donation of $2: 100 credits' });
    await expect(billing.checkout(USER, { pack_id: 'free-money' })).rejects.toBeInstanceOf(UnknownPackError);
  });

  it('marks the order failed when the gateway cannot start the checkout', async () => {
    gateway.failing = true;
    await expect(billing.checkout(USER, { pack_id: 'starter' })).rejects.toThrow('gateway down');
    expect(orders.rows.map((o) => o.status)).toEqual(['failed']);
  });

  it('fulfils a paid order once: its lot granted once, a redelivered or repeated payment changes nothing', async () => {
    const order = await checkout();
    expect(await billing.applyUpdate('evt_1', paid(order))).toBe('applied');
    expect(await billing.applyUpdate('evt_1', paid(order))).toBe('duplicate');
    expect(await billing.applyUpdate('evt_2', paid(order))).toBe('ignored');
    expect(await ledger.balance(USER.id)).toBe(100);
    const [lot] = await ledger.lots(USER.id);
    expect(lot).toMatchObject({ source: 'pack', sourceRef: orderLotRef(order.id), description: `Starter pack: 100 credits (${order.number})` });
    expect(await orders.findById(order.id)).toMatchObject({ status: 'paid', gatewayPaymentRef: `pi_${order.id}`, paymentMethod: 'Visa •••• 4242', paidAt: expect.any(Date) });
  });

  it('grants nothing for a payment short of the price or in another currency, or for an unknown session', async () => {
    const order = await checkout();
    expect(await billing.applyUpdate('evt_short', paid(order, { amountPaidCents: 298 }))).toBe('ignored');
    expect(await billing.applyUpdate('evt_eur', paid(order, { currency: 'eur' }))).toBe('ignored');
    expect(await billing.applyUpdate('evt_unknown', paid(order, { sessionId: 'cs_nobody' }))).toBe('ignored');
    expect(await billing.applyUpdate('evt_none', null)).toBe('ignored');
    expect(await ledger.balance(USER.id)).toBe(0);
    expect((await orders.findById(order.id))!.status).toBe('pending');
  });

  it('still fulfils an order our housekeeping expired when its money arrives late', async () => {
    const order = await checkout();
    orders.rows[0]!.createdAt = new Date(Date.now() - PENDING_ORDER_TTL_MS - 1000);
    expect(await billing.expireStalePending()).toBe(1);
    expect(await billing.applyUpdate('evt_late', paid(order))).toBe('applied');
    expect(await ledger.balance(USER.id)).toBe(100);
  });

  it('expires only pending orders older than a day', async () => {
    await checkout();
    const old = await checkout();
    orders.rows.find((o) => o.id === old.id)!.createdAt = new Date(Date.now() - PENDING_ORDER_TTL_MS - 1000);
    expect(await billing.expireStalePending()).toBe(1);
    expect(orders.rows.map((o) => o.status).sort()).toEqual(['expired', 'pending']);
  });

  it.each(['failed', 'canceled', 'expired'] as const)('moves a pending order to %s, and never a paid one', async (type) => {
    const order = await checkout();
    expect(await billing.applyUpdate(`evt_${type}`, { type, sessionId: order.gatewaySessionId! })).toBe('applied');
    expect((await orders.findById(order.id))!.status).toBe(type);
    const other = await checkout();
    await billing.applyUpdate('evt_paid', paid(other));
    expect(await billing.applyUpdate(`evt_${type}_late`, { type, sessionId: other.gatewaySessionId! })).toBe('ignored');
    expect((await orders.findById(other.id))!.status).toBe('paid');
  });

  it('takes back the refunded share of the credits, rounded up, from cumulative amounts; an old figure changes nothing', async () => {
    const order = await checkout();
    await billing.applyUpdate('evt_paid', paid(order));
    const ref = `pi_${order.id}`;
    // 100 of 299 cents: 33.4% of 100 credits, 34 taken back.
    expect(await billing.applyUpdate('evt_r1', { type: 'refunded', paymentRef: ref, refundedCents: 100 })).toBe('applied');
    expect(await orders.findById(order.id)).toMatchObject({ status: 'partially_refunded', refundedCents: 100, creditsRevoked: 34 });
    expect(await ledger.balance(USER.id)).toBe(66);
    expect(await billing.applyUpdate('evt_r0', { type: 'refunded', paymentRef: ref, refundedCents: 50 })).toBe('ignored');
    expect(await billing.applyUpdate('evt_r2', { type: 'refunded', paymentRef: ref, refundedCents: 299 })).toBe('applied');
    expect(await orders.findById(order.id)).toMatchObject({ status: 'refunded', refundedCents: 299, creditsRevoked: 100 });
    expect(await ledger.balance(USER.id)).toBe(0);
  });

  it('takes back only the unspent credits of a refund or a dispute', async () => {
    const order = await checkout();
    await billing.applyUpdate('evt_paid', paid(order));
    await ledger.hold({ userId: USER.id, amount: 80, idempotencyKey: 'spend', description: 'Images' });
    expect(await billing.applyUpdate('evt_dispute', { type: 'disputed', paymentRef: `pi_${order.id}` })).toBe('applied');
    expect(await orders.findById(order.id)).toMatchObject({ status: 'disputed', creditsRevoked: 100 });
    expect(ledger.events.filter((e) => e.kind === 'revoke').map((e) => e.credits)).toEqual([-20]);
    expect(await billing.applyUpdate('evt_dispute_2', { type: 'disputed', paymentRef: `pi_${order.id}` })).toBe('ignored');
    // A later refund of a disputed order keeps it disputed and takes nothing more.
    expect(await billing.applyUpdate('evt_refund', { type: 'refunded', paymentRef: `pi_${order.id}`, refundedCents: 299 })).toBe('applied');
    expect((await orders.findById(order.id))!.status).toBe('disputed');
    expect(ledger.events.filter((e) => e.kind === 'revoke')).toHaveLength(1);
  });

  it('asks the gateway to deliver a refund or dispute again when it comes before the payment', async () => {
    const order = await checkout();
    const refund = { type: 'refunded' as const, paymentRef: `pi_${order.id}`, refundedCents: 299 };
    await expect(billing.applyUpdate('evt_early', refund)).rejects.toBeInstanceOf(PaymentEventTooEarlyError);
    // Not recorded: once the payment is in, the redelivery applies.
    await billing.applyUpdate('evt_paid', paid(order));
    expect(await billing.applyUpdate('evt_early', refund)).toBe('applied');
    expect(await ledger.balance(USER.id)).toBe(0);
  });

  it("refunds through the gateway what is left of a paid order, and no more", async () => {
    const order = await checkout();
    let n = 0;
    const as = (amountCents?: number) => ({ amountCents, idempotencyKey: `key-${n++}`, adminId: 'admin-1' });
    await expect(billing.refund(order.id, as())).rejects.toBeInstanceOf(RefundNotPossibleError);
    await billing.applyUpdate('evt_paid', paid(order));
    await expect(billing.refund(order.id, as(300))).rejects.toThrow('At most 299 cents of this order can still be refunded.');
    expect(await billing.refund(order.id, as(99))).toMatchObject({ status: 'partially_refunded', refunded_cents: 99 });
    expect(await billing.refund(order.id, as())).toMatchObject({ status: 'refunded', refunded_cents: 299 });
    expect(gateway.refunds.map((r) => r.amountCents)).toEqual([99, 200]);
    await expect(billing.refund(order.id, as())).rejects.toBeInstanceOf(RefundNotPossibleError);
    await expect(billing.refund('no-such-order', as())).rejects.toBeInstanceOf(OrderNotFoundError);
  });

  it('refunds once per idempotency key: a retry answers with the first result, another amount under the key is refused', async () => {
    const order = await checkout();
    await billing.applyUpdate('evt_paid', paid(order));
    const request = { amountCents: 100, idempotencyKey: 'ticket-1', adminId: 'admin-1' };
    const first = await billing.refund(order.id, request);
    expect(await billing.refund(order.id, request)).toEqual(first);
    expect(gateway.refunds).toHaveLength(1);
    await expect(billing.refund(order.id, { ...request, amountCents: 50 })).rejects.toMatchObject({ code: 'BILLING.REFUND_KEY_REUSED' });
    expect(ledger.events.filter((e) => e.kind === 'revoke').map((e) => e.actorId)).toEqual(['admin-1']);
  });

  it("pays through the local test checkout only, for the buyer's own pending order, once", async () => {
    const stripeOrder = await checkout();
    await expect(billing.testPayment(USER.id, stripeOrder.id, 'paid')).rejects.toBeInstanceOf(TestCheckoutUnavailableError);

    setUp('local');
    const order = await checkout();
    await expect(billing.testPayment('someone-else', order.id, 'paid')).rejects.toBeInstanceOf(OrderNotFoundError);
    expect(await billing.testPayment(USER.id, order.id, 'paid')).toMatchObject({ status: 'paid', payment_method: TEST_PAYMENT_METHOD, test: true });
    // Pressing Pay again (a reload) changes nothing; Cancel after paying is refused.
    expect(await billing.testPayment(USER.id, order.id, 'paid')).toMatchObject({ status: 'paid' });
    await expect(billing.testPayment(USER.id, order.id, 'canceled')).rejects.toBeInstanceOf(OrderNotPayableError);
    expect(await ledger.balance(USER.id)).toBe(100);

    const canceled = await checkout();
    expect(await billing.testPayment(USER.id, canceled.id, 'canceled')).toMatchObject({ status: 'canceled' });
    await expect(billing.testPayment(USER.id, canceled.id, 'paid')).rejects.toBeInstanceOf(OrderNotPayableError);
  });

  it('reads a pending order from the database, and asks the gateway at most three times, 5 s, 15 s and 45 s after the order', async () => {
    const order = await checkout();
    const row = orders.rows.find((o) => o.id === order.id)!;
    const age = (ms: number) => (row.createdAt = new Date(Date.now() - ms));
    // The success page polls every 2 s: the first 5 s never reach Stripe.
    for (let i = 0; i < 3; i++) expect(await billing.order(USER.id, order.id)).toMatchObject({ status: 'pending' });
    expect(gateway.lookupCalls).toBe(0);
    age(6_000);
    for (let i = 0; i < 3; i++) await billing.order(USER.id, order.id);
    expect(gateway.lookupCalls).toBe(1);
    age(16_000);
    for (let i = 0; i < 3; i++) await billing.order(USER.id, order.id);
    expect(gateway.lookupCalls).toBe(2);
    age(46_000);
    await billing.order(USER.id, order.id);
    age(3_600_000);
    for (let i = 0; i < 5; i++) await billing.order(USER.id, order.id);
    expect(gateway.lookupCalls).toBe(3);
    // The webhook is the news from then on.
    expect(await billing.applyUpdate('evt_webhook', paid(order))).toBe('applied');
    expect(await billing.order(USER.id, order.id)).toMatchObject({ status: 'paid' });
    expect(gateway.lookupCalls).toBe(3);
  });

  it('fulfils a pending order from a look-up when the webhook is late, once', async () => {
    const order = await checkout();
    orders.rows.find((o) => o.id === order.id)!.createdAt = new Date(Date.now() - 6_000);
    gateway.lookups.set(order.gatewaySessionId!, paid(order));
    expect(await billing.order(USER.id, order.id)).toMatchObject({ status: 'paid', credits: 100 });
    expect(await ledger.balance(USER.id)).toBe(100);
    // The webhook arriving afterwards grants nothing more.
    expect(await billing.applyUpdate('evt_webhook', paid(order))).toBe('ignored');
    expect(await ledger.balance(USER.id)).toBe(100);
    await expect(billing.order('someone-else', order.id)).rejects.toBeInstanceOf(OrderNotFoundError);
  });

  it('keeps at most 3 checkouts open per user: a 4th answers 429 with Retry-After until one is canceled or a day old', async () => {
    const open = [await checkout(), await checkout(), await checkout()];
    const refused = await billing.checkout(USER, { pack_id: 'starter' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TooManyOpenCheckoutsError);
    expect(refused).toMatchObject({ code: 'BILLING.TOO_MANY_OPEN_CHECKOUTS', kind: 'rate_limited', message: 'You have 3 unfinished checkouts. Finish or cancel one on your billing page, then try again.' });
    // Until the oldest one's checkout session expires, a day after it was made.
    expect((refused as TooManyOpenCheckoutsError).retryAfterSeconds).toBeGreaterThan(86_400 - 60);
    expect((refused as TooManyOpenCheckoutsError).retryAfterSeconds).toBeLessThanOrEqual(86_400);
    expect(gateway.checkouts).toHaveLength(3);
    // Someone else is not counted against this user.
    await billing.checkout({ id: 'user-2', email: 'other@example.com' }, { pack_id: 'starter' });
    // Canceled, or paid: a place again.
    await billing.cancelCheckout(USER.id, open[0]!.id);
    await billing.applyUpdate('evt_paid', paid(open[1]!));
    await checkout();
    await checkout();
    await expect(billing.checkout(USER, { pack_id: 'starter' })).rejects.toBeInstanceOf(TooManyOpenCheckoutsError);
    // A pending order older than a checkout session lives is not open any more.
    orders.rows.find((o) => o.id === open[2]!.id)!.createdAt = new Date(Date.now() - PENDING_ORDER_TTL_MS - 1000);
    await checkout();
  });

  describe('money events after the payment', () => {
    const ref = (order: Order) => `pi_${order.id}`;
    const spend = async (credits: number) => {
      const key = randomUUID();
      await ledger.hold({ userId: USER.id, amount: credits, idempotencyKey: key, description: 'Images' });
      await ledger.capture(key);
    };
    const history = async () => (await ledger.history(USER.id, 1, 50)).items;

    it('takes back the credits failed jobs release into a refunded order: the refund leaves nothing to spend', async () => {
      const order = await checkout();
      await billing.applyUpdate('evt_paid', paid(order));
      const jobs = ['job-1', 'job-2', 'job-3'];
      for (const key of jobs) await ledger.hold({ userId: USER.id, amount: 10, idempotencyKey: key, description: 'Image conversion' });
      expect(await billing.applyUpdate('evt_refund', { type: 'refunded', paymentRef: ref(order), refundedCents: 299 })).toBe('applied');
      expect(await ledger.balance(USER.id)).toBe(0);
      await ledger.release('job-1', 'failed');
      await ledger.release('job-2', 'failed');
      expect(await ledger.balance(USER.id)).toBe(0);
      expect((await billing.listOrders(USER.id, 1)).items[0]).toMatchObject({ status: 'refunded', credits_to_take_back: 100, credits_taken_back: 90 });
    });

    it('records the refund shortfall: how many credits were actually taken back, and how many were already used', async () => {
      const order = await checkout();
      await billing.applyUpdate('evt_paid', paid(order));
      await spend(2);
      expect(await billing.applyUpdate('evt_refund', { type: 'refunded', paymentRef: ref(order), refundedCents: 299 })).toBe('applied');
      expect((await billing.listOrders(USER.id, 1)).items[0]).toMatchObject({ credits_to_take_back: 100, credits_taken_back: 98 });
      expect((await billing.adminOrder(order.id)).credits_revoked).toBe(98);
      expect((await history())[0]).toMatchObject({ kind: 'revoke', credits: -98, description: `Refund of ${order.number}: 98 of 100 credits taken back, 2 already used` });
    });

    it('gives back what a dispute took when it closes with the payment standing, once, whichever event says so', async () => {
      const order = await checkout();
      await billing.applyUpdate('evt_paid', paid(order));
      // A third refunded first (34 credits), then the rest disputed (66 more).
      await billing.applyUpdate('evt_refund', { type: 'refunded', paymentRef: ref(order), refundedCents: 100 });
      expect(await billing.applyUpdate('evt_dispute', { type: 'disputed', paymentRef: ref(order) })).toBe('applied');
      expect(await ledger.balance(USER.id)).toBe(0);

      const won = { type: 'dispute_won' as const, paymentRef: ref(order), disputeId: 'dp_1' };
      expect(await billing.applyUpdate('evt_won', won)).toBe('applied');
      expect(await ledger.balance(USER.id)).toBe(66);
      expect(await billing.applyUpdate('evt_won', won)).toBe('duplicate');
      expect(await billing.applyUpdate('evt_won_again', won)).toBe('ignored');
      expect(await ledger.balance(USER.id)).toBe(66);
      const [view] = (await billing.listOrders(USER.id, 1)).items;
      expect(view).toMatchObject({ status: 'partially_refunded', refunded_cents: 100, credits_to_take_back: 34, credits_taken_back: 34, dispute_won_at: expect.any(String) });
      expect((await history())[0]).toMatchObject({ kind: 'restore', credits: 66, description: `Dispute of ${order.number} closed, the payment stands: credits given back` });
      // Won for an order that is not disputed: nothing.
      expect(await billing.applyUpdate('evt_won_other', { ...won, disputeId: 'dp_2' })).toBe('ignored');
      expect(await ledger.balance(USER.id)).toBe(66);
    });

    it('gives back the credits of a refund that failed, once per refund, whichever event says so', async () => {
      const order = await checkout();
      await billing.applyUpdate('evt_paid', paid(order));
      await billing.applyUpdate('evt_r1', { type: 'refunded', paymentRef: ref(order), refundedCents: 100 });
      await billing.applyUpdate('evt_r2', { type: 'refunded', paymentRef: ref(order), refundedCents: 299 });
      expect(await ledger.balance(USER.id)).toBe(0);

      // The second refund (199 cents) failed at the bank: its 66 credits come back, the first one's 34 stay taken.
      const failed = { type: 'refund_failed' as const, paymentRef: ref(order), refundId: 're_2', amountCents: 199 };
      expect(await billing.applyUpdate('evt_refund_failed', failed)).toBe('applied');
      expect(await billing.applyUpdate('evt_refund_updated', failed)).toBe('ignored');
      expect(await billing.applyUpdate('evt_refund_failed', failed)).toBe('duplicate');
      expect(await ledger.balance(USER.id)).toBe(66);
      expect((await billing.listOrders(USER.id, 1)).items[0]).toMatchObject({ status: 'partially_refunded', refunded_cents: 100, refund_failed_cents: 199, credits_to_take_back: 34, credits_taken_back: 34 });
      expect((await history())[0]).toMatchObject({ kind: 'restore', credits: 66, description: `Refund of ${order.number} failed: credits given back` });

      // The first one fails too: the order is as if never refunded.
      expect(await billing.applyUpdate('evt_refund_failed_1', { ...failed, refundId: 're_1', amountCents: 100 })).toBe('applied');
      expect((await billing.listOrders(USER.id, 1)).items[0]).toMatchObject({ status: 'paid', refunded_cents: 0, refund_failed_cents: 299, credits_taken_back: 0 });
      expect(await ledger.balance(USER.id)).toBe(100);
    });

    it('acknowledges a signed event the gateway could not read or is of the other mode, keeps it for the admin, and applies nothing', async () => {
      const order = await checkout();
      const event = { id: 'evt_odd', type: 'checkout.session.completed', update: paid(order), problem: 'a live mode event, and this site\'s key is test mode' };
      expect(await billing.handleWebhook(Buffer.from(JSON.stringify(event)), 'sig')).toBe('refused');
      expect(await billing.handleWebhook(Buffer.from(JSON.stringify(event)), 'sig')).toBe('duplicate');
      expect(await ledger.balance(USER.id)).toBe(0);
      expect((await orders.findById(order.id))!.status).toBe('pending');
      expect(await billing.refusedEvents(1)).toMatchObject({ total: 1, items: [{ id: 'evt_odd', type: 'checkout.session.completed', problem: event.problem }] });
    });
  });

  it("lists a user's orders twenty a page, newest first", async () => {
    setUp('stripe', { CHECKOUT_MAX_OPEN: '30' });
    for (let i = 0; i < 21; i++) await checkout();
    const page = await billing.listOrders(USER.id, 1);
    expect(page).toMatchObject({ page: 1, pages: 2, total: 21 });
    expect(page.items[0]!.id).toBe(orders.rows.at(-1)!.id);
    expect((await billing.listAllOrders({ status: 'paid' }, 1)).total).toBe(0);
  });
});
