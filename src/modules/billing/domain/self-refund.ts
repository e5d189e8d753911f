import type { Order } from './order';

/** The self-service refund rule in numbers (settings REFUND_WINDOW_DAYS, REFUND_MAX_USED_PERCENT). */
export interface RefundRule {
  windowDays: number;
  maxUsedPercent: number;
}

const DAY_MS = 86_400_000;

/**
 * Whether the buyer may refund this order themself at `now`: a pack (donations are gifts), paid and
 * not refunded in any part, paid within the window, with less than the rule's share of its credits
 * used. `used`: the credits of the order's lot no longer in it (spent or held). Null: allowed; else why not.
 */
export function selfRefundRefusal(order: Pick<Order, 'kind' | 'status' | 'paidAt' | 'credits'>, used: number, rule: RefundRule, now: Date): string | null {
  if (order.kind !== 'pack') return 'Donations are not refundable from this page.';
  if (order.status !== 'paid' || !order.paidAt) return order.status === 'refunded' || order.status === 'partially_refunded' ? 'This order was refunded already.' : 'Only a paid order can be refunded.';
  if (rule.windowDays <= 0) return 'Refunds are not offered on this page; please contact us.';
  if (now.getTime() - order.paidAt.getTime() > rule.windowDays * DAY_MS) return `It was paid more than ${rule.windowDays} days ago.`;
  if (used * 100 >= rule.maxUsedPercent * order.credits) return `${used} of its ${order.credits} credits are used: ${rule.maxUsedPercent}% or more.`;
  return null;
}
