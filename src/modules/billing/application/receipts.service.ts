import { Injectable } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import type { ExportView, OrderExportRow, ReceiptView } from 'src/contracts/billing';
import { CreditLedger } from 'src/modules/credits';
import { dollars, formatInZone, toCsv } from 'src/platform/csv/csv';
import { OrderNotFoundError } from '../domain/billing.errors';
import { PAID_STATUSES, type Order } from '../domain/order';
import { OrderRepository } from '../domain/order-repository.port';
import { OrderViews } from './order-views.service';
import { requirePaymentsEnabled } from 'src/modules/credits';
import { selfRefundKey } from './refund.service';

/** Every order of one user fits in one export (a page of the repository this large). */
const EXPORT_MAX_ORDERS = 10_000;

/** Receipts of paid orders and the orders export (CSV and JSON). */
@Injectable()
export class ReceiptsService {
  constructor(
    private readonly orders: OrderRepository,
    private readonly views: OrderViews,
    private readonly ledger: CreditLedger,
    private readonly config: AppConfig,
  ) {}

  /** The receipt of a paid order: its owner's, or any for an admin; anyone else's answers like a missing one. */
  async receipt(viewer: { userId: string; admin: boolean }, orderId: string): Promise<ReceiptView> {
    requirePaymentsEnabled(this.config);
    const order = await this.orders.findById(orderId);
    if (!order || (order.userId !== viewer.userId && !viewer.admin) || !PAID_STATUSES.includes(order.status)) throw new OrderNotFoundError();
    const [view, trail, email] = await Promise.all([this.views.view(order), this.orders.trail(order.id), this.ledger.emailOf(order.userId)]);
    const refunds: ReceiptView['refunds'] = trail.refunds.map((refund) => ({
      amount_cents: refund.amountCents,
      created_at: refund.createdAt.toISOString(),
      by: refund.idempotencyKey === selfRefundKey(order.id) ? 'you' : 'admin',
    }));
    // Refunded at the payment service itself (Stripe's dashboard): dated by the event that told us.
    const unrecorded = order.refundedCents - refunds.reduce((sum, refund) => sum + refund.amount_cents, 0);
    if (unrecorded > 0) {
      const event = trail.events.filter((e) => e.type === 'refunded').at(-1);
      refunds.push({ amount_cents: unrecorded, created_at: (event?.receivedAt ?? order.updatedAt).toISOString(), by: 'payment_service' });
    }
    return {
      order: view,
      seller: this.config.payments.seller,
      buyer_email: email,
      items: [{ description: order.description, quantity: 1, credits: order.credits, amount_cents: order.amountCents }],
      refunds,
      invoice_url: order.invoiceUrl,
    };
  }

  /** Every order of the user, oldest first, dates in `timeZone`, with totals. */
  async exportOrders(userId: string, timeZone: string): Promise<ExportView<OrderExportRow>> {
    requirePaymentsEnabled(this.config);
    const { items } = await this.orders.listForUser(userId, 1, EXPORT_MAX_ORDERS);
    const orders = [...items].reverse();
    const paid = orders.filter((order) => PAID_STATUSES.includes(order.status));
    const sum = (list: Order[], pick: (order: Order) => number) => list.reduce((total, order) => total + pick(order), 0);
    return {
      time_zone: timeZone,
      rows: orders.map((order) => ({
        number: order.number,
        date: formatInZone(order.createdAt, timeZone),
        description: order.description,
        status: order.status,
        amount_usd: dollars(order.amountCents),
        refunded_usd: dollars(order.refundedCents),
        credits: order.credits,
        payment_method: order.paymentMethod ?? '',
      })),
      totals: {
        orders: orders.length,
        paid_usd: dollars(sum(paid, (order) => order.amountCents)),
        refunded_usd: dollars(sum(paid, (order) => order.refundedCents)),
        net_usd: dollars(sum(paid, (order) => order.amountCents - order.refundedCents)),
        credits_bought: sum(paid, (order) => order.credits),
      },
    };
  }
}

/** The orders export as CSV: a header naming the time zone, the rows, then a totals row (paid orders only). */
export function ordersCsv(data: ExportView<OrderExportRow>): string {
  const { totals } = data;
  return toCsv(
    ['Order', `Date (${data.time_zone})`, 'Description', 'Status', 'Amount (USD)', 'Refunded (USD)', 'Credits', 'Payment method'],
    [
      ...data.rows.map((row) => [row.number, row.date, row.description, row.status, row.amount_usd, row.refunded_usd, row.credits, row.payment_method]),
      ['Total (paid orders)', '', `${totals.orders} orders; net ${totals.net_usd} USD`, '', totals.paid_usd!, totals.refunded_usd!, totals.credits_bought!, ''],
    ],
  );
}
