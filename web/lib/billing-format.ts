import type { CreditsView, LedgerEventKind, LotSource, OrderStatus, OrderView } from 'src/contracts/billing';
import { formatInteger } from 'src/contracts/number-format';
import type { AccountMessageKey } from 'web/i18n/account-messages';

/**
 * Pure helpers of the billing pages (pricing, payment, billing, usage): words for statuses,
 * the donation field's check, the usage chart's geometry, the success page's polling rule.
 */

/** Order statuses in people's words (the API's are snake_case). */
export const ORDER_STATUS_KEYS: Record<OrderStatus, AccountMessageKey> = {
  pending: 'status.pending',
  paid: 'status.paid',
  partially_refunded: 'status.partiallyRefunded',
  refunded: 'status.refunded',
  disputed: 'status.disputed',
  canceled: 'status.canceled',
  expired: 'status.expired',
  failed: 'status.failed',
};

/**
 * How the status badge looks, one colour per meaning: money in (green), waiting for the payment
 * (blue), money back in part (amber) or in full (violet), something wrong (red), nothing happened (grey).
 */
export function orderStatusTone(status: OrderStatus): 'green' | 'amber' | 'gray' | 'red' | 'blue' | 'violet' {
  switch (status) {
    case 'paid':
      return 'green';
    case 'pending':
      return 'blue';
    case 'partially_refunded':
      return 'amber';
    case 'refunded':
      return 'violet';
    case 'disputed':
    case 'failed':
      return 'red';
    default:
      return 'gray';
  }
}

/** The order went through: credits were granted (some may have been taken back since). */
export const wasPaid = (order: Pick<OrderView, 'status'>) => ['paid', 'partially_refunded', 'refunded', 'disputed'].includes(order.status);

export const LOT_SOURCE_KEYS: Record<LotSource, AccountMessageKey> = {
  trial: 'usage.sourceTrial',
  pack: 'usage.sourcePack',
  donation: 'usage.sourceDonation',
  admin: 'usage.sourceAdmin',
};

export const LEDGER_KIND_KEYS: Record<LedgerEventKind, AccountMessageKey> = {
  grant: 'usage.kindGrant',
  spend: 'usage.kindSpend',
  refund: 'usage.kindRefund',
  revoke: 'usage.kindRevoke',
  expire: 'usage.kindExpire',
  restore: 'usage.kindRestore',
};

/**
 * The donation field: whole dollars within the limits. The dollars, or the message key of what is
 * wrong (the server checks the same rules with checkoutSchema).
 */
export function checkDonation(value: string, limits: { min_usd: number; max_usd: number }): { usd: number } | { problem: AccountMessageKey } {
  const text = value.trim();
  if (!/^\d{1,7}$/.test(text)) return { problem: 'pricing.donateWhole' };
  const usd = Number(text);
  if (usd < limits.min_usd) return { problem: 'pricing.donateMin' };
  if (usd > limits.max_usd) return { problem: 'pricing.donateMax' };
  return { usd };
}

/** What became of an order's money after it was paid, in plain words (message key and values): taken back, a dispute closed, a refund failed. */
export function orderNotes(order: OrderView, formatUsd: (cents: number) => string): { key: AccountMessageKey; values?: Record<string, string | number> }[] {
  const notes: { key: AccountMessageKey; values?: Record<string, string | number> }[] = [];
  if (order.credits_to_take_back > 0) {
    const used = order.credits_to_take_back - order.credits_taken_back;
    notes.push(
      used > 0
        ? { key: 'billing.takenBackShort', values: { taken: order.credits_taken_back, wanted: order.credits_to_take_back, used } }
        : { key: 'billing.takenBack', values: { taken: order.credits_taken_back } },
    );
  }
  if (order.dispute_won_at) notes.push({ key: 'billing.disputeWon' });
  if (order.refund_failed_cents > 0) notes.push({ key: 'billing.refundFailed', values: { amount: formatUsd(order.refund_failed_cents) } });
  return notes;
}

/** The success page asks the server again every 2 s while the order is pending, for 2 minutes at most. */
export const POLL_INTERVAL_MS = 2000;
export const POLL_LIMIT_MS = 120_000;
export const keepPolling = (order: Pick<OrderView, 'status'>, startedAt: number, now: number) =>
  order.status === 'pending' && now - startedAt < POLL_LIMIT_MS;

/** ?page=N of a list, 1 when absent or not a sensible number. */
export function pageParam(search: string): number {
  const page = Number(new URLSearchParams(search).get('page') ?? 1);
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1;
}

/** A list's URL for page N: page 1 has no parameter. */
export const pageHref = (path: string, page: number) => (page > 1 ? `${path}?page=${page}` : path);

/** "+10", "−1" (a real minus sign), "0". */
export const signedNumber = (n: number, tag: string) => (n > 0 ? `+${formatInteger(n, tag)}` : n < 0 ? `−${formatInteger(Math.abs(n), tag)}` : '0');

/** Date and time in the visitor's time zone (these parts render in the browser only). */
export const formatDateTime = (iso: string, tag: string) => new Date(iso).toLocaleString(tag, { dateStyle: 'medium', timeStyle: 'short' });

export interface ChartBar {
  date: string;
  credits: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The bars of the usage chart in a width x height box: one slot a day, bars 70% of their slot and
 * scaled to the busiest day; a day with any use gets at least 2 units so it stays visible.
 */
export function usageChart(daily: CreditsView['daily_usage'], width: number, height: number) {
  const max = Math.max(0, ...daily.map((day) => day.credits));
  const total = daily.reduce((sum, day) => sum + day.credits, 0);
  const slot = daily.length ? width / daily.length : width;
  const barWidth = slot * 0.7;
  const bars: ChartBar[] = daily.map((day, i) => {
    const h = max && day.credits ? Math.max(2, (day.credits / max) * height) : 0;
    return { date: day.date, credits: day.credits, x: i * slot + (slot - barWidth) / 2, y: height - h, width: barWidth, height: h };
  });
  const busiest = max ? daily.find((day) => day.credits === max) : undefined;
  return { bars, max, total, busiest };
}
