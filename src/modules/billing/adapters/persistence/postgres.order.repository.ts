import { Injectable } from '@nestjs/common';
import { SqlRunner } from 'src/platform/database/sql-runner';
import type { OrderStatus } from 'src/contracts/billing';
import type { Order } from '../../domain/order';
import { newOrderNumber } from '../../domain/order-number';
import { OrderRepository, type NewOrder, type OrderChanges } from '../../domain/order-repository.port';

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
  status: OrderStatus;
  gateway: Order['gateway'];
  gateway_session_id: string | null;
  gateway_payment_ref: string | null;
  payment_method: string | null;
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
  status: row.status,
  gateway: row.gateway,
  gatewaySessionId: row.gateway_session_id,
  gatewayPaymentRef: row.gateway_payment_ref,
  paymentMethod: row.payment_method,
  createdAt: new Date(row.created_at),
  paidAt: row.paid_at === null ? null : new Date(row.paid_at),
  updatedAt: new Date(row.updated_at),
});

const COLUMNS: Record<keyof OrderChanges, string> = {
  status: 'status',
  refundedCents: 'refunded_cents',
  creditsRevoked: 'credits_revoked',
  gatewaySessionId: 'gateway_session_id',
  gatewayPaymentRef: 'gateway_payment_ref',
  paymentMethod: 'payment_method',
  paidAt: 'paid_at',
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

  list(filter: { status?: OrderStatus }, page: number, pageSize: number): Promise<{ items: Order[]; total: number }> {
    return filter.status ? this.page(`status = ?`, [filter.status], page, pageSize) : this.page(`true`, [], page, pageSize);
  }

  async recordEvent(id: string, type: string): Promise<boolean> {
    const rows = await this.sql(`insert into payment_events (id, type) values (?, ?) on conflict (id) do nothing returning id`, [id.slice(0, 255), type.slice(0, 60)]);
    return rows.length > 0;
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
