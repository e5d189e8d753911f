import { useId, type FormEvent } from 'react';
import { ORDER_STATUSES, type OrderStatus, type RefusedEventView } from 'src/contracts/billing';
import { formatUsd } from 'web/lib/money';
import { Badge, buttonClass, cardClass, linkClass, mutedClass } from 'web/components/account-ui';
import { Breadcrumbs } from 'web/components/level-bits';
import { PageLinks } from 'web/components/page-links';
import { Seo } from 'web/components/seo';
import { TestModeNote } from 'web/components/test-mode-note';
import { useAccountI18n } from 'web/i18n/account-messages';
import { ORDER_STATUS_KEYS } from 'web/lib/billing-format';
import { Link, useNavigate, useLoaderData } from 'web/lib/router/router';
import { ADMIN, ORDERS, StatusBadge, inputClass, utc } from 'web/features/ops/admin-orders-common';
import type { LoaderData } from 'web/lib/router/page';
import type loader from 'web/features/ops/admin-orders.loader';

const ordersHref = (filter: LoaderData<typeof loader>['filter'], page = 1) => {
  const params = new URLSearchParams();
  if (filter.email) params.set('email', filter.email);
  if (filter.number) params.set('number', filter.number);
  if (filter.status) params.set('status', filter.status);
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return `/admin/orders${query ? `?${query}` : ''}`;
};

/** /admin/orders: the search form and the orders found, newest first. */
export default function AdminOrdersPage() {
  const { filter, orders, refused } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const { t } = useAccountI18n();
  const id = useId();
  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim() || undefined;
    void navigate(ordersHref({ email: text('email'), number: text('number'), status: text('status') as OrderStatus | undefined }));
  };
  return (
    <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={`${ORDERS} · ${ADMIN}`} noindex />
      <Breadcrumbs items={[{ label: ADMIN, to: '/admin' }, { label: ORDERS }]} />
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight sm:text-4xl">{ORDERS}</h1>
      <TestModeNote className="mt-4" />
      <form role="search" aria-label="Find orders" onSubmit={search} className={`${cardClass} mt-6 grid gap-4 sm:grid-cols-[1fr_12rem_12rem_auto] sm:items-end`}>
        <div>
          <label htmlFor={`${id}-email`} className="block text-sm font-medium">
            Buyer&apos;s email
          </label>
          <input id={`${id}-email`} name="email" type="search" defaultValue={filter.email} maxLength={256} placeholder="part of an address" className={inputClass} />
        </div>
        <div>
          <label htmlFor={`${id}-number`} className="block text-sm font-medium">
            Order number
          </label>
          <input id={`${id}-number`} name="number" type="search" defaultValue={filter.number} maxLength={20} placeholder="ORD-…" className={inputClass} />
        </div>
        <div>
          <label htmlFor={`${id}-status`} className="block text-sm font-medium">
            Status
          </label>
          <select id={`${id}-status`} name="status" defaultValue={filter.status ?? ''} className={inputClass}>
            <option value="">Any</option>
            {ORDER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(ORDER_STATUS_KEYS[status])}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={buttonClass}>
          Search
        </button>
      </form>

      <p className={`mt-6 text-sm ${mutedClass}`} role="status">
        {orders.total.toLocaleString('en-US')} order{orders.total === 1 ? '' : 's'}
        {filter.email || filter.number || filter.status ? ' found' : ''}, newest first.
      </p>
      {orders.items.length > 0 && (
        <ul className="mt-3 divide-y divide-gray-200 rounded-3xl border border-gray-200 bg-white shadow-sm dark:divide-gray-800 dark:border-gray-800 dark:bg-gray-900/60" data-testid="admin-orders">
          {orders.items.map((order) => (
            <li key={order.id} data-order={order.id} className="flex flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
              <div className="min-w-0 basis-full sm:basis-0 sm:flex-1">
                <p className="flex flex-wrap items-center gap-2">
                  <Link to={`/admin/orders/${order.id}`} className={`${linkClass} font-mono whitespace-nowrap`}>
                    {order.number}
                  </Link>
                  <StatusBadge status={order.status} />
                  {order.test && <Badge tone="amber">Test</Badge>}
                </p>
                <p className={`mt-0.5 truncate text-sm ${mutedClass}`}>
                  {order.email ?? 'account deleted'} · {order.description}
                </p>
              </div>
              <p className="text-sm tabular-nums sm:text-right">
                <span className="font-semibold">{formatUsd(order.amount_cents)}</span>
                {order.refunded_cents > 0 && <span className={`block ${mutedClass}`}>{formatUsd(order.refunded_cents)} refunded</span>}
              </p>
              <p className={`text-sm max-sm:ml-auto sm:w-40 sm:text-right ${mutedClass}`}>
                <time dateTime={order.created_at}>{utc(order.created_at)}</time>
              </p>
            </li>
          ))}
        </ul>
      )}
      <PageLinks page={orders.page} pageCount={orders.pages} hrefFor={(page) => ordersHref(filter, page)} className="mt-6" />
      {refused.length > 0 && <RefusedEvents events={refused} />}
    </main>
  );
}

/** Stripe events that were signed but not applied: acknowledged (so Stripe stops sending them), kept here with the reason. */
function RefusedEvents({ events }: { events: RefusedEventView[] }) {
  return (
    <section aria-labelledby="refused-events" className="mt-10" data-testid="refused-events">
      <h2 id="refused-events" className="text-xl font-bold">
        Payment events not applied
      </h2>
      <p className={`mt-1 text-sm ${mutedClass}`}>Signed by Stripe, but unreadable or of the other mode (live or test): acknowledged, nothing changed. The latest 20.</p>
      <ul className="mt-3 divide-y divide-gray-200 rounded-3xl border border-gray-200 bg-white shadow-sm dark:divide-gray-800 dark:border-gray-800 dark:bg-gray-900/60">
        {events.map((event) => (
          <li key={event.id} className="px-4 py-3 text-sm sm:px-6">
            <p className="flex flex-wrap items-center gap-x-3">
              <span className="font-mono break-all">{event.id}</span>
              <span className="font-semibold">{event.type}</span>
              <time dateTime={event.received_at} className={`ml-auto ${mutedClass}`}>
                {utc(event.received_at)}
              </time>
            </p>
            <p className={`mt-0.5 break-words ${mutedClass}`}>{event.problem}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
