import { randomUUID } from 'node:crypto';
import { loadConfig } from 'src/config/app-config';
import type { CreditPack, OrderStatus } from 'src/contracts/billing';
import type { SessionAuthenticator } from 'src/modules/auth';
import { InMemoryCreditLedger } from 'test/fakes/in-memory-credit-ledger.adapter';
import { Order } from '../domain/order';
import { newOrderNumber } from '../domain/order-number';
import { OrderRepository, type NewOrder, type OrderChanges, type OrderRefund, type OrderSearch } from '../domain/order-repository.port';
import { PaymentGateway, type CheckoutRequest, type GatewayEvent, type PaymentUpdate } from '../domain/payment-gateway.port';
import { PricingCatalog } from '../domain/pricing-catalog.port';
import { AdminOrdersService } from './admin-orders.service';
import { CheckoutService } from './checkout.service';
import { OrderViews } from './order-views.service';
import { PaymentEventsService } from './payment-events.service';
import { PaymentReversalsService } from './payment-reversals.service';
import { RefundService } from './refund.service';

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
  /** One process, no interleaving between the check and the record here: nothing to hold. */
  async holdRefundKey() {}
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

export const PACKS: CreditPack[] = [
  { id: 'starter', name: 'Starter', credits: 100, validity_days: 30, price_cents: 299, currency: 'usd', most_popular: false, features: [] },
  { id: 'popular', name: 'Popular', credits: 500, validity_days: 90, price_cents: 999, currency: 'usd', most_popular: true, features: [] },
];

class FixedCatalog extends PricingCatalog {
  packs() {
    return PACKS;
  }
}

export const USER = { id: 'user-1', email: 'buyer@example.com' };

/** The billing services on in-memory ports, as billing.module.ts wires them, with a fresh repository, ledger and gateway. */
export function billingTestBed(kind: 'stripe' | 'local' = 'stripe', env: Record<string, string> = {}) {
  const orders = new InMemoryOrderRepository();
  const ledger = new InMemoryCreditLedger();
  const gateway = new FakeGateway(kind);
  const accounts = { emailsOf: async () => new Map<string, string>() } as unknown as SessionAuthenticator;
  const config = loadConfig({}, { HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true', PUBLIC_URL: 'https://guides.example', ...env });
  const views = new OrderViews(ledger, config);
  const events = new PaymentEventsService(orders, gateway, ledger, config, new PaymentReversalsService(orders, ledger));
  const checkouts = new CheckoutService(orders, gateway, new FixedCatalog(), events, views, config);
  const refunds = new RefundService(orders, gateway, events, views, config);
  const admin = new AdminOrdersService(orders, ledger, accounts, views, config);

  /** A checkout of `input` and its gateway session id. */
  async function checkout(input: { pack_id?: string; donation_usd?: number } = { pack_id: 'starter' }) {
    const { order_id } = await checkouts.checkout(USER, input);
    return (await orders.findById(order_id))!;
  }
  return { orders, ledger, gateway, checkouts, events, refunds, admin, checkout };
}

export type BillingTestBed = ReturnType<typeof billingTestBed>;

export const paid = (order: Order, extra: Partial<Extract<PaymentUpdate, { type: 'paid' }>> = {}): PaymentUpdate => ({
  type: 'paid',
  sessionId: order.gatewaySessionId!,
  amountPaidCents: order.amountCents,
  currency: 'usd',
  paymentRef: `pi_${order.id}`,
  paymentMethod: 'Visa •••• 4242',
  ...extra,
});
