import type { ReactNode } from 'react';
import { formatUsd } from 'web/lib/money';
import { Badge, cardClass, mutedClass } from 'web/components/account-ui';
import { Breadcrumbs } from 'web/components/level-bits';
import { Seo } from 'web/components/seo';
import { TestModeNote } from 'web/components/test-mode-note';
import { useLocation, useNavigate, useLoaderData } from 'web/lib/router/router';
import { ADMIN, ORDERS, StatusBadge, utc } from 'web/features/ops/admin-orders-common';
import { GrantForm } from 'web/features/ops/grant-form';
import { Trail } from 'web/features/ops/order-trail';
import { RefundForm } from 'web/features/ops/refund-form';
import type loader from 'web/features/ops/admin-order.loader';

/** /admin/orders/{id}: the order, its trail, and what an admin can do with it. */
export default function AdminOrderPage() {
  const detail = useLoaderData<typeof loader>();
  const { order } = detail;
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // After a change, the page's data again (admin pages are never cached).
  const reload = () => void navigate(pathname, { replace: true });
  const facts: [string, ReactNode][] = [
    ['Buyer', order.email ?? 'account deleted'],
    ['What', order.description],
    ['Amount', formatUsd(order.amount_cents)],
    ['Refunded', formatUsd(order.refunded_cents)],
    [
      'Credits',
      `${order.credits.toLocaleString('en-US')} granted, ${detail.credits_revoked.toLocaleString('en-US')} taken back` +
        (order.credits_to_take_back > detail.credits_revoked ? ` of ${order.credits_to_take_back.toLocaleString('en-US')} asked (the rest were already used)` : ''),
    ],
    ['Payment method', order.payment_method ?? '—'],
    ['Created', <time dateTime={order.created_at}>{utc(order.created_at)}</time>],
    ['Paid', order.paid_at ? <time dateTime={order.paid_at}>{utc(order.paid_at)}</time> : '—'],
  ];
  return (
    <main className="mx-auto max-w-5xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={`${order.number} · ${ADMIN}`} noindex />
      <Breadcrumbs items={[{ label: ADMIN, to: '/admin' }, { label: ORDERS, to: '/admin/orders' }, { label: order.number }]} />
      <h1 className="mt-6 flex flex-wrap items-center gap-3 text-3xl font-extrabold tracking-tight">
        <span className="font-mono">{order.number}</span>
        <StatusBadge status={order.status} />
        {order.test && <Badge tone="amber">Test</Badge>}
      </h1>
      <TestModeNote className="mt-4" />
      <div className="mt-6 grid gap-6 lg:grid-cols-[3fr_2fr] lg:items-start">
        <section aria-labelledby="order-facts" className={cardClass}>
          <h2 id="order-facts" className="text-lg font-bold">
            The order
          </h2>
          <dl className="mt-3 divide-y divide-gray-200 dark:divide-gray-800">
            {facts.map(([label, value]) => (
              <div key={label} className="flex justify-between gap-4 py-2 text-sm">
                <dt className={mutedClass}>{label}</dt>
                <dd className="text-right font-medium break-all">{value}</dd>
              </div>
            ))}
          </dl>
        </section>
        <div className="space-y-6">
          <RefundForm detail={detail} onDone={reload} />
          <GrantForm email={order.email} onDone={reload} />
        </div>
      </div>
      <Trail detail={detail} />
    </main>
  );
}
