import { Injectable } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import type { AdminOrderDetail, AdminOrderView, Paged, RefusedEventView } from 'src/contracts/billing';
import { SessionAuthenticator } from 'src/modules/auth';
import { CreditLedger, requirePaymentsEnabled } from 'src/modules/credits';
import { OrderNotFoundError } from '../domain/billing.errors';
import { orderLotRef, PAID_STATUSES } from '../domain/order';
import { OrderRepository, type OrderSearch } from '../domain/order-repository.port';
import { ORDERS_PAGE_SIZE, OrderViews, pageCount, toOrderView } from './order-views.service';

/** The admins' reading of orders: every order, one order's whole trail, and the webhook events refused. */
@Injectable()
export class AdminOrdersService {
  constructor(
    private readonly orders: OrderRepository,
    private readonly ledger: CreditLedger,
    private readonly accounts: SessionAuthenticator,
    private readonly views: OrderViews,
    private readonly config: AppConfig,
  ) {}

  /** Signed webhook events acknowledged without being applied (unreadable, or of the other mode), newest first. */
  async refusedEvents(page: number): Promise<Paged<RefusedEventView>> {
    requirePaymentsEnabled(this.config);
    const { items, total } = await this.orders.refusedEvents(page, ORDERS_PAGE_SIZE);
    return { items: items.map((e) => ({ id: e.id, type: e.type, problem: e.problem, received_at: e.receivedAt.toISOString() })), page, pages: pageCount(total), total };
  }

  /** Every order, newest first, by the buyer's address, the order number and status (each optional, parts match). */
  async listAllOrders(filter: OrderSearch, page: number): Promise<Paged<AdminOrderView>> {
    requirePaymentsEnabled(this.config);
    const { items, total } = await this.orders.search(filter, page, ORDERS_PAGE_SIZE);
    const taken = await this.views.takenBack(items);
    return { items: items.map((order) => ({ ...toOrderView(order, taken.get(order.id)), user_id: order.userId, email: order.email })), page, pages: pageCount(total), total };
  }

  /** One order with its credits (granted, spent, taken back), its refunds and its gateway events. */
  async adminOrder(orderId: string): Promise<AdminOrderDetail> {
    requirePaymentsEnabled(this.config);
    const order = await this.orders.findById(orderId);
    if (!order) throw new OrderNotFoundError();
    const [activity, trail, taken] = await Promise.all([this.ledger.lotActivity(orderLotRef(order.id)), this.orders.trail(order.id), this.views.takenBack([order])]);
    const actors = [order.userId, ...trail.refunds.map((r) => r.adminId), ...(activity?.events ?? []).map((e) => e.actorId)].filter((id): id is string => !!id);
    const emails = await this.accounts.emailsOf(actors);
    const who = (id: string | null | undefined) => (id ? (emails.get(id) ?? id) : null);
    const refundable = PAID_STATUSES.includes(order.status) && order.status !== 'disputed' ? order.amountCents - order.refundedCents : 0;
    return {
      order: { ...toOrderView(order, taken.get(order.id)), user_id: order.userId, email: emails.get(order.userId) ?? null },
      // What the ledger could take back (spent credits cannot be), not what the refunds asked for.
      credits_revoked: taken.get(order.id) ?? 0,
      refundable_cents: order.gatewayPaymentRef ? refundable : 0,
      lot: activity && { granted: activity.lot.granted, remaining: activity.lot.remaining, expires_at: activity.lot.expiresAt.toISOString() },
      credit_events: (activity?.events ?? []).map((e) => ({ kind: e.kind, credits: e.credits, description: e.description, created_at: e.createdAt.toISOString(), admin: who(e.actorId) })),
      refunds: trail.refunds.map((r) => ({ amount_cents: r.amountCents, refunded_cents: r.refundedCents, admin: who(r.adminId), created_at: r.createdAt.toISOString() })),
      payment_events: trail.events.map((e) => ({ id: e.id, type: e.type, received_at: e.receivedAt.toISOString() })),
    };
  }
}
