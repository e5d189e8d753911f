import { randomUUID } from 'node:crypto';
import type { OrderStatus } from 'src/contracts/billing';
import { Order } from '../domain/order';
import { newOrderNumber } from '../domain/order-number';
import { OrderRepository, type NewOrder, type OrderChanges, type OrderRefund, type OrderSearch } from '../domain/order-repository.port';

/**
 * Orders in memory, for specs: conditional updates like the SQL repository's (a status change from
 * the wrong status does nothing), each gateway event recorded once, a failed transaction rolling
 * back the orders and the events. test/billing-*.e2e-spec.ts prove the SQL.
 */
export class InMemoryOrderRepository extends OrderRepository {
  readonly rows: Order[] = [];
  readonly events = new Set<string>();
  private readonly eventLog: { id: string; type: string; receivedAt: Date; orderId?: string }[] = [];

  private readonly emailOf: (userId: string) => string | null;
  private readonly ledger?: { snapshot(): () => void };

  /**
   * `ledger`: the in-memory ledger, whose changes a failed transaction rolls back too (the SQL
   * ledger joins the transaction); `emailOf`: the buyer's address, as the SQL joins the accounts
   * table for the admin's search.
   */
  constructor(options: { ledger?: { snapshot(): () => void }; emailOf?: (userId: string) => string | null } = {}) {
    super();
    this.ledger = options.ledger;
    this.emailOf = options.emailOf ?? (() => null);
  }

  /** A failure rolls back the orders, the recorded events and the ledger, as the database transaction does. */
  async inTransaction<T>(work: () => Promise<T>): Promise<T> {
    const rows = this.rows.map((row) => ({ ...row }));
    const events = new Set(this.events);
    const log = this.eventLog.length;
    const restoreLedger = this.ledger?.snapshot();
    try {
      return await work();
    } catch (error) {
      this.rows.splice(0, this.rows.length, ...rows);
      this.events.clear();
      events.forEach((id) => this.events.add(id));
      this.eventLog.splice(log);
      restoreLedger?.();
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
      invoiceUrl: null,
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
  async recordEvent(id: string, type: string, problem?: string) {
    if (this.events.has(id)) return false;
    this.events.add(id);
    this.eventLog.push({ id, type, receivedAt: new Date() });
    if (problem) this.refused.push({ id, type, problem, receivedAt: new Date() });
    return true;
  }
  async expirePending(before: Date) {
    const stale = this.rows.filter((o) => o.status === 'pending' && o.createdAt < before);
    for (const row of stale) row.status = 'expired';
    return stale.length;
  }
  readonly refundRows: OrderRefund[] = [];
  async linkEvent(id: string, orderId: string) {
    const event = this.eventLog.find((e) => e.id === id);
    if (event) event.orderId = orderId;
  }
  /** One process, no interleaving between the check and the record here: nothing to hold. */
  async holdRefundKey() {}
  async findRefund(key: string) {
    return this.refundRows.find((r) => r.idempotencyKey === key) ?? null;
  }
  async recordRefund(refund: Omit<OrderRefund, 'createdAt'>) {
    this.refundRows.push({ ...refund, createdAt: new Date() });
  }
  async trail(orderId: string) {
    const events = this.eventLog.filter((e) => e.orderId === orderId).map(({ id, type, receivedAt }) => ({ id, type, receivedAt }));
    return { refunds: this.refundRows.filter((r) => r.orderId === orderId), events };
  }
  async search(filter: OrderSearch, page: number, pageSize: number) {
    const email = filter.email?.toLowerCase();
    const number = filter.number?.toUpperCase();
    const found = this.rows
      .map((o) => ({ ...o, email: this.emailOf(o.userId) }))
      .filter((o) => (!filter.status || o.status === filter.status) && (!number || o.number.includes(number)) && (!email || (o.email ?? '').includes(email)))
      .reverse();
    return { items: found.slice((page - 1) * pageSize, page * pageSize), total: found.length };
  }
}
