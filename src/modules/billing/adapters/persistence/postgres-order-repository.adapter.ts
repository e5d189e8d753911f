import { Injectable } from '@nestjs/common';
import { SqlRunner } from 'src/platform/database/sql-runner';
import type { OrderStatus } from 'src/contracts/billing';
import type { Order } from '../../domain/order';
import { newOrderNumber } from '../../domain/order-number';
import { OrderRepository, type NewOrder, type OrderChanges, type OrderRefund, type OrderSearch, type RefusedEvent } from '../../domain/order-repository.port';

interface OrderRow {
  id: string;
  number: string;
  user_id: string;
  kind: Order['kind'];
  pack_id: string | null;
  description: string;
  credits: number;
  validity_days: number;
  amount_cents: number;
  refunded_cents: number;
  credits_revoked: number;
  gateway_lookups: number;
  dispute_won_at: string | Date | null;
  refund_failed_cents: number;
  status: OrderStatus;
  gateway: Order['gateway'];
  gateway_session_id: string | null;
  gateway_payment_ref: string | null;
  payment_method: string | null;
  invoice_url: string | null;
  // Raw rows: MikroORM's pg type parsers leave timestamps as strings.
  created_at: string | Date;
  paid_at: string | Date | null;
  updated_at: string | Date;
}

const toOrder = (row: OrderRow): Order => ({
  id: row.id,
  number: row.number,
  userId: row.user_id,
  kind: row.kind,
  packId: row.pack_id,
  description: row.description,
  credits: row.credits,
  validityDays: row.validity_days,
  amountCents: row.amount_cents,
  refundedCents: row.refunded_cents,
  creditsRevoked: row.credits_revoked,
  gatewayLookups: row.gateway_lookups,
  disputeWonAt: row.dispute_won_at === null ? null : new Date(row.dispute_won_at),
  refundFailedCents: row.refund_failed_cents,
  status: row.status,
  gateway: row.gateway,
  gatewaySessionId: row.gateway_session_id,
  gatewayPaymentRef: row.gateway_payment_ref,
  paymentMethod: row.payment_method,
  invoiceUrl: row.invoice_url,
  createdAt: new Date(row.created_at),
  paidAt: row.paid_at === null ? null : new Date(row.paid_at),
  updatedAt: new Date(row.updated_at),
});

interface RefundRow {
  order_id: string;
  idempotency_key: string;
  amount_cents: number;
  refunded_cents: number;
  admin_id: string | null;
  created_at: string | Date;
}

const toRefund = (row: RefundRow): OrderRefund => ({
  orderId: row.order_id,
  idempotencyKey: row.idempotency_key,
  amountCents: row.amount_cents,
  refundedCents: row.refunded_cents,
  adminId: row.admin_id,
  createdAt: new Date(row.created_at),
});

/** Text searched with LIKE, its wildcards taken literally. */
const likePattern = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const COLUMNS: Record<keyof OrderChanges, string> = {
  status: 'status',
  refundedCents: 'refunded_cents',
  creditsRevoked: 'credits_revoked',
  gatewaySessionId: 'gateway_session_id',
  gatewayPaymentRef: 'gateway_payment_ref',
  paymentMethod: 'payment_method',
  invoiceUrl: 'invoice_url',
  paidAt: 'paid_at',
  disputeWonAt: 'dispute_won_at',
  refundFailedCents: 'refund_failed_cents',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Orders in PostgreSQL, in plain SQL like the credit ledger: row locks and conditional updates,
 * inside the transaction of inTransaction (MikroORM's transaction context, which the ledger joins).
 */
@Injectable()
export class PostgresOrderRepository extends OrderRepository {
  constructor(private readonly db: SqlRunner) {
    super();
  }

  private sql<T>(query: string, params: unknown[] = []): Promise<T[]> {
    return this.db.query<T>(query, params);
  }

  inTransaction<T>(work: () => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async create(order: NewOrder): Promise<Order> {
    const [row] = await this.sql<OrderRow>(
      `insert into orders (number, user_id, kind, pack_id, description, credits, validity_days, amount_cents, status, gateway)
       values (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?) returning *`,
      [newOrderNumber(), order.userId, order.kind, order.packId, order.description, order.credits, order.validityDays, order.amountCents, order.gateway],
    );
    return toOrder(row!);
  }

  createIfFewerOpen(order: NewOrder, limit: number, withinMs: number): Promise<Order | null> {
    return this.inTransaction(async () => {
      // One user's checkouts queue here (a transaction-scoped lock on the user id), so the count holds under a burst.
      await this.sql(`select pg_advisory_xact_lock(hashtextextended(?, 22))`, [`checkout:${order.userId}`]);
      const [open] = await this.sql<{ n: string }>(
        `select count(*) as n from orders where user_id = ? and status = 'pending' and created_at > now() - make_interval(secs => ?)`,
        [order.userId, withinMs / 1000],
      );
      return Number(open?.n ?? 0) >= limit ? null : this.create(order);
    });
  }

  async openOrders(userId: string, withinMs: number): Promise<Order[]> {
    const rows = await this.sql<OrderRow>(
      `select * from orders where user_id = ? and status = 'pending' and created_at > now() - make_interval(secs => ?) order by created_at`,
      [userId, withinMs / 1000],
    );
    return rows.map(toOrder);
  }

  async claimLookup(id: string, done: number, afterMs: number): Promise<boolean> {
    const rows = await this.sql(
      `update orders set gateway_lookups = gateway_lookups + 1
        where id = ? and gateway_lookups = ? and created_at <= now() - make_interval(secs => ?) returning id`,
      [id, done, afterMs / 1000],
    );
    return rows.length > 0;
  }

  async findById(id: string): Promise<Order | null> {
    if (!UUID.test(id)) return null;
    const [row] = await this.sql<OrderRow>(`select * from orders where id = ?`, [id]);
    return row ? toOrder(row) : null;
  }

  async lockById(id: string): Promise<Order | null> {
    if (!UUID.test(id)) return null;
    return this.lockOne(`id = ?`, id);
  }

  lockBySession(sessionId: string): Promise<Order | null> {
    return this.lockOne(`gateway_session_id = ?`, sessionId);
  }

  lockByPaymentRef(paymentRef: string): Promise<Order | null> {
    return this.lockOne(`gateway_payment_ref = ?`, paymentRef);
  }

  async update(id: string, changes: OrderChanges, from?: readonly OrderStatus[]): Promise<boolean> {
    const entries = Object.entries(changes).filter(([, value]) => value !== undefined) as [keyof OrderChanges, unknown][];
    const sets = entries.map(([key]) => `${COLUMNS[key]} = ?`);
    const params = entries.map(([, value]) => value);
    const guard = from?.length ? ` and status in (${from.map(() => '?').join(', ')})` : '';
    const rows = await this.sql<{ id: string }>(
      `update orders set ${[...sets, 'updated_at = now()'].join(', ')} where id = ?${guard} returning id`,
      [...params, id, ...(from ?? [])],
    );
    return rows.length > 0;
  }

  listForUser(userId: string, page: number, pageSize: number): Promise<{ items: Order[]; total: number }> {
    return this.page(`user_id = ?`, [userId], page, pageSize);
  }

  async recordEvent(id: string, type: string, problem?: string): Promise<boolean> {
    const rows = await this.sql(`insert into payment_events (id, type, problem) values (?, ?, ?) on conflict (id) do nothing returning id`, [
      id.slice(0, 255),
      type.slice(0, 60),
      problem?.slice(0, 300) ?? null,
    ]);
    return rows.length > 0;
  }

  async refusedEvents(page: number, pageSize: number): Promise<{ items: RefusedEvent[]; total: number }> {
    const rows = await this.sql<{ id: string; type: string; problem: string; received_at: string | Date; total: string }>(
      `select id, type, problem, received_at, count(*) over () as total from payment_events
        where problem is not null order by received_at desc, id limit ? offset ?`,
      [pageSize, (page - 1) * pageSize],
    );
    const total = rows[0] ? Number(rows[0].total) : Number((await this.sql<{ n: string }>(`select count(*) as n from payment_events where problem is not null`))[0]?.n ?? 0);
    return { items: rows.map((r) => ({ id: r.id, type: r.type, problem: r.problem, receivedAt: new Date(r.received_at) })), total };
  }

  async linkEvent(id: string, orderId: string): Promise<void> {
    await this.sql(`update payment_events set order_id = ? where id = ? and order_id is null`, [orderId, id.slice(0, 255)]);
  }

  async holdRefundKey(idempotencyKey: string): Promise<void> {
    // Transaction-scoped, like the checkout lock; a hash collision only queues two keys together.
    await this.sql(`select pg_advisory_xact_lock(hashtextextended(?, 22))`, [`refund-key:${idempotencyKey}`]);
  }

  async findRefund(idempotencyKey: string): Promise<OrderRefund | null> {
    const [row] = await this.sql<RefundRow>(`select * from order_refunds where idempotency_key = ?`, [idempotencyKey]);
    return row ? toRefund(row) : null;
  }

  async recordRefund(refund: Omit<OrderRefund, 'createdAt'>): Promise<void> {
    await this.sql(`insert into order_refunds (order_id, idempotency_key, amount_cents, refunded_cents, admin_id) values (?, ?, ?, ?, ?)`, [
      refund.orderId,
      refund.idempotencyKey,
      refund.amountCents,
      refund.refundedCents,
      refund.adminId,
    ]);
  }

  async trail(orderId: string): Promise<{ refunds: OrderRefund[]; events: { id: string; type: string; receivedAt: Date }[] }> {
    const refunds = await this.sql<RefundRow>(`select * from order_refunds where order_id = ? order by created_at, id`, [orderId]);
    const events = await this.sql<{ id: string; type: string; received_at: string | Date }>(
      `select id, type, received_at from payment_events where order_id = ? order by received_at, id`,
      [orderId],
    );
    return { refunds: refunds.map(toRefund), events: events.map((e) => ({ id: e.id, type: e.type, receivedAt: new Date(e.received_at) })) };
  }

  async search(filter: OrderSearch, page: number, pageSize: number): Promise<{ items: (Order & { email: string | null })[]; total: number }> {
    // Joins the accounts table for the buyer's address: one query for the admin's list, read only.
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.email) {
      where.push(`u.email like ? escape '\\'`);
      params.push(`%${likePattern(filter.email.toLowerCase())}%`);
    }
    if (filter.number) {
      where.push(`o.number like ? escape '\\'`);
      params.push(`%${likePattern(filter.number.toUpperCase())}%`);
    }
    if (filter.status) {
      where.push(`o.status = ?`);
      params.push(filter.status);
    }
    const rows = await this.sql<OrderRow & { email: string | null; total: string }>(
      `select o.*, u.email, count(*) over () as total
         from orders o left join users u on u.id = o.user_id
        where ${where.length ? where.join(' and ') : 'true'}
        order by o.created_at desc, o.id desc limit ? offset ?`,
      [...params, pageSize, (page - 1) * pageSize],
    );
    const total = rows[0]
      ? Number(rows[0].total)
      : Number(
          (await this.sql<{ n: string }>(`select count(*) as n from orders o left join users u on u.id = o.user_id where ${where.length ? where.join(' and ') : 'true'}`, params))[0]?.n ?? 0,
        );
    return { items: rows.map((row) => ({ ...toOrder(row), email: row.email })), total };
  }

  async expirePending(before: Date): Promise<number> {
    const rows = await this.sql(`update orders set status = 'expired', updated_at = now() where status = 'pending' and created_at < ? returning id`, [before]);
    return rows.length;
  }

  private async lockOne(where: string, value: string): Promise<Order | null> {
    const [row] = await this.sql<OrderRow>(`select * from orders where ${where} for update`, [value]);
    return row ? toOrder(row) : null;
  }

  private async page(where: string, params: unknown[], page: number, pageSize: number): Promise<{ items: Order[]; total: number }> {
    const rows = await this.sql<OrderRow & { total: string }>(
      `select *, count(*) over () as total from orders where ${where} order by created_at desc, id desc limit ? offset ?`,
      [...params, pageSize, (page - 1) * pageSize],
    );
    const total = rows[0] ? Number(rows[0].total) : Number((await this.sql<{ n: string }>(`select count(*) as n from orders where ${where}`, params))[0]?.n ?? 0);
    return { items: rows.map(toOrder), total };
  }
}
