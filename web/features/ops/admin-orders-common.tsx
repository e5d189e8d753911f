import type { OrderStatus } from 'src/contracts/billing';
import { Badge } from 'web/components/account-ui';
import { useAccountI18n } from 'web/i18n/account-messages';
import { ORDER_STATUS_KEYS, orderStatusTone } from 'web/lib/billing-format';

/*
 * /admin/orders and /admin/orders/{id}: find an order by the buyer's address, its number or its
 * status; see what it granted, what was spent and taken back, its refunds and the gateway's
 * events; refund it (behind a confirmation that says what will be taken back) and grant credits to
 * its buyer. Admins only (route access 'admin'); English only, like the other ops screens. Every
 * write carries an Idempotency-Key made when its form opens, so a retried request changes nothing
 * more, and the API records the admin's id with it (the audit trail).
 */
export const ADMIN = 'Admin';

export const ORDERS = 'Orders';

export const inputClass =
  'mt-1 block w-full rounded-xl border border-gray-300 bg-white px-3.5 py-2 text-base shadow-sm outline-none focus:border-primary-500 focus:ring-2 focus:ring-primary-500/30 dark:border-gray-700 dark:bg-gray-900';

export const utc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

export const newKey = () => `admin-${crypto.randomUUID()}`;

export function StatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useAccountI18n();
  return <Badge tone={orderStatusTone(status)}>{t(ORDER_STATUS_KEYS[status])}</Badge>;
}
