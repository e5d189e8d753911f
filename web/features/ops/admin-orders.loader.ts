import { ORDER_STATUSES, type OrderStatus } from 'src/contracts/billing';
import { filterText } from 'src/contracts/search-text';
import { unknownRoute } from 'web/lib/not-found';
import type { LoaderArgs } from 'web/lib/router/page';
import { pageNumber } from 'web/lib/router/query';

/** Orders, refunds and grants (404 while payments are off, like the rest of payments). */
export default async function adminOrdersLoader({ url, data }: LoaderArgs) {
  const search = url.searchParams;
  const status = search.get('status') ?? '';
  const filter = {
    email: filterText(search.get('email'), 256),
    number: filterText(search.get('number'), 20),
    status: (ORDER_STATUSES as readonly string[]).includes(status) ? (status as OrderStatus) : undefined,
  };
  const [orders, refused] = await Promise.all([data.billing.adminOrders(filter, pageNumber(url)), data.billing.refusedEvents(1)]);
  /** refused: the latest signed webhook events acknowledged but not applied (unreadable, or of the other mode). */
  return orders ? { filter, orders, refused: refused?.items ?? [] } : unknownRoute(url.pathname);
}
