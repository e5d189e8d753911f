import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import {
  creditsForRefundedCents,
  formatUsd,
  ORDER_STATUSES,
  type AdminOrderDetail,
  type AdminOrderView,
  type OrderStatus,
  type Paged,
  type RefusedEventView,
} from 'src/contracts/billing';
import { Badge, buttonClass, cardClass, linkClass, mutedClass, secondaryButtonClass } from 'web/components/account-ui';
import { Breadcrumbs } from 'web/components/level-bits';
import { PageLinks } from 'web/components/page-links';
import { Seo } from 'web/components/seo';
import { TestModeNote } from 'web/components/test-mode-note';
import { usePageI18n } from 'web/i18n/page-messages';
import { ApiError, apiRequest } from 'web/lib/api';
import { ORDER_STATUS_KEYS, orderStatusTone } from 'web/lib/billing-format';
import { Link, useLocation, useNavigate, usePageData } from 'web/lib/router/router';
import { notify } from 'web/lib/toasts';

/*
 * /admin/orders and /admin/orders/{id}: find an order by the buyer's address, its number or its
 * status; see what it granted, what was spent and taken back, its refunds and the gateway's
 * events; refund it (behind a confirmation that says what will be taken back) and grant credits to
 * its buyer. Admins only (route access 'admin'); English only, like the other ops screens. Every
 * write carries an Idempotency-Key made when its form opens, so a retried request changes nothing
 * more, and the API records the admin's id with it (the audit trail).
 */

export interface AdminOrdersData {
  filter: { email?: string; number?: string; status?: OrderStatus };
  orders: Paged<AdminOrderView>;
  /** The latest signed webhook events acknowledged but not applied (unreadable, or of the other mode). */
  refused: RefusedEventView[];
}

const ADMIN = 'Admin';
const ORDERS = 'Orders';
const inputClass =
  'mt-1 block w-full rounded-xl border border-gray-300 bg-white px-3.5 py-2 text-base shadow-sm outline-none focus:border-primary-500 focus:ring-2 focus:ring-primary-500/30 dark:border-gray-700 dark:bg-gray-900';
const utc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
const newKey = () => `admin-${crypto.randomUUID()}`;

function StatusBadge({ status }: { status: OrderStatus }) {
  const { t } = usePageI18n();
  return <Badge tone={orderStatusTone(status)}>{t(ORDER_STATUS_KEYS[status])}</Badge>;
}

const ordersHref = (filter: AdminOrdersData['filter'], page = 1) => {
  const params = new URLSearchParams();
  if (filter.email) params.set('email', filter.email);
  if (filter.number) params.set('number', filter.number);
  if (filter.status) params.set('status', filter.status);
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return `/admin/orders${query ? `?${query}` : ''}`;
};

/** /admin/orders: the search form and the orders found, newest first. */
export function AdminOrdersPage() {
  const { filter, orders, refused } = usePageData<AdminOrdersData>();
  const navigate = useNavigate();
  const { t } = usePageI18n();
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

/** /admin/orders/{id}: the order, its trail, and what an admin can do with it. */
export function AdminOrderPage() {
  const detail = usePageData<AdminOrderDetail>();
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

/** Refund all that is left or part of it, after a confirmation that says what will be taken back. */
function RefundForm({ detail, onDone }: { detail: AdminOrderDetail; onDone: () => void }) {
  const { t } = usePageI18n();
  const { order } = detail;
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const [dollars, setDollars] = useState((detail.refundable_cents / 100).toFixed(2));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // One key per confirmation: a retry of the same request refunds once.
  const [key, setKey] = useState('');
  if (detail.refundable_cents <= 0) {
    return (
      <section aria-labelledby={`${id}-title`} className={cardClass}>
        <h2 id={`${id}-title`} className="text-lg font-bold">
          Refund
        </h2>
        <p className={`mt-2 text-sm ${mutedClass}`}>Nothing to refund: only a paid order that is not fully refunded (nor disputed) can be refunded.</p>
      </section>
    );
  }
  const cents = Math.round(Number(dollars) * 100);
  const valid = /^\d+(\.\d{1,2})?$/.test(dollars.trim()) && cents >= 1 && cents <= detail.refundable_cents;
  // The refunded share of the credits (rounded up), less what was taken back already, and only what is unspent.
  const owed = valid ? Math.max(0, creditsForRefundedCents({ credits: order.credits, amountCents: order.amount_cents }, order.refunded_cents + cents) - order.credits_to_take_back) : 0;
  const taken = Math.min(owed, detail.lot?.remaining ?? 0);
  const confirm = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return setProblem(`Enter an amount from $0.01 to ${formatUsd(detail.refundable_cents)}.`);
    setProblem(null);
    setKey(newKey());
    dialog.current?.showModal();
  };
  const refund = async () => {
    setBusy(true);
    try {
      const body = cents === detail.refundable_cents ? {} : { amount_cents: cents };
      await apiRequest(t, 'POST', `/api/v1/admin/orders/${encodeURIComponent(order.id)}/refund`, body, { headers: { 'idempotency-key': key } });
      dialog.current?.close();
      notify(`Refunded ${formatUsd(cents)} of ${order.number}`, 'success');
      onDone();
    } catch (error) {
      if (error instanceof ApiError) setProblem(error.message);
      dialog.current?.close();
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby={`${id}-title`} className={cardClass}>
      <h2 id={`${id}-title`} className="text-lg font-bold">
        Refund
      </h2>
      <form noValidate onSubmit={confirm} className="mt-3">
        <label htmlFor={`${id}-amount`} className="block text-sm font-medium">
          Amount in US dollars (up to {formatUsd(detail.refundable_cents)})
        </label>
        <div className="mt-1 flex gap-3">
          <input
            id={`${id}-amount`}
            inputMode="decimal"
            autoComplete="off"
            value={dollars}
            onChange={(event) => setDollars(event.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
            className={inputClass.replace('mt-1 ', '')}
          />
          <button ref={opener} type="submit" className={`${secondaryButtonClass} shrink-0`}>
            Refund…
          </button>
        </div>
        {problem && (
          <p id={`${id}-problem`} role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
            {problem}
          </p>
        )}
      </form>
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-confirm`}
        onClose={() => opener.current?.focus()}
        className="m-auto w-[min(28rem,calc(100%-2rem))] rounded-3xl bg-white p-6 text-gray-900 shadow-xl backdrop:bg-gray-950/50 dark:bg-gray-900 dark:text-gray-100"
      >
        <h2 id={`${id}-confirm`} className="text-xl font-bold">
          Refund {formatUsd(cents)} of {order.number}?
        </h2>
        <ul className="mt-3 list-disc space-y-1 pl-5 text-sm" data-testid="refund-consequences">
          <li>
            {formatUsd(cents)} goes back to {order.email ?? 'the buyer'}
            {order.test ? ' (a test order: no real money moves)' : ' through the payment provider'}.
          </li>
          <li>
            {taken.toLocaleString('en-US')} credit{taken === 1 ? '' : 's'} will be taken back from {order.email ?? 'the account'}
            {taken < owed ? ` (${owed.toLocaleString('en-US')} are owed, but only ${taken.toLocaleString('en-US')} are still unspent)` : ''}.
          </li>
          <li>The order will be {order.refunded_cents + cents >= order.amount_cents ? 'refunded in full' : 'partially refunded'}. This cannot be undone.</li>
        </ul>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row-reverse">
          <button type="button" disabled={busy} onClick={() => void refund()} className={`${buttonClass} sm:flex-1`}>
            Refund {formatUsd(cents)}
          </button>
          <button type="button" onClick={() => dialog.current?.close()} className={`${secondaryButtonClass} sm:flex-1`}>
            Cancel
          </button>
        </div>
      </dialog>
    </section>
  );
}

/** Credits for the buyer (or another account), with the reason they will see in their history. */
function GrantForm({ email, onDone }: { email: string | null; onDone: () => void }) {
  const { t } = usePageI18n();
  const id = useId();
  const [key, setKey] = useState(newKey);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const grant = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setProblem(null);
    try {
      const body = {
        email: String(form.get('email') ?? ''),
        credits: Number(form.get('credits')),
        validity_days: Number(form.get('validity_days')),
        reason: String(form.get('reason') ?? ''),
      };
      const { data } = await apiRequest<{ granted: boolean }>(t, 'POST', '/api/v1/admin/credits', body, { headers: { 'idempotency-key': key } });
      notify(data.granted ? `Granted ${body.credits} credits to ${body.email}` : 'Already granted', 'success');
      setKey(newKey());
      onDone();
    } catch (error) {
      if (error instanceof ApiError) setProblem(error.message);
    } finally {
      setBusy(false);
    }
  };
  const field = (name: string, label: string, input: ReactNode) => (
    <div>
      <label htmlFor={`${id}-${name}`} className="block text-sm font-medium">
        {label}
      </label>
      {input}
    </div>
  );
  return (
    <section aria-labelledby={`${id}-title`} className={cardClass}>
      <h2 id={`${id}-title`} className="text-lg font-bold">
        Grant credits
      </h2>
      <form onSubmit={(event) => void grant(event)} className="mt-3 space-y-3">
        {field('email', 'Account email', <input id={`${id}-email`} name="email" type="email" required maxLength={256} defaultValue={email ?? ''} className={inputClass} />)}
        <div className="grid grid-cols-2 gap-3">
          {field('credits', 'Credits', <input id={`${id}-credits`} name="credits" type="number" required min={1} max={1_000_000} defaultValue={10} className={inputClass} />)}
          {field('validity_days', 'Valid for (days)', <input id={`${id}-validity_days`} name="validity_days" type="number" required min={1} max={3650} defaultValue={365} className={inputClass} />)}
        </div>
        {field('reason', 'Reason (the account sees it)', <input id={`${id}-reason`} name="reason" required minLength={3} maxLength={200} className={inputClass} />)}
        {problem && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {problem}
          </p>
        )}
        <button type="submit" disabled={busy} className={`${secondaryButtonClass} w-full`}>
          Grant credits
        </button>
      </form>
    </section>
  );
}

/** What happened to the order: its credits (granted, spent, taken back, by whom), its refunds and the gateway's events. */
function Trail({ detail }: { detail: AdminOrderDetail }) {
  const table = (title: string, head: string[], rows: ReactNode[][], testId: string) => (
    <section aria-labelledby={`${testId}-title`} className="mt-8">
      <h2 id={`${testId}-title`} className="text-xl font-bold">
        {title}
      </h2>
      {rows.length === 0 ? (
        <p className={`mt-2 text-sm ${mutedClass}`}>None.</p>
      ) : (
        <div className="mt-3 overflow-x-auto rounded-3xl border border-gray-200 bg-white shadow-sm dark:border-gray-800 dark:bg-gray-900/60">
          <table className="w-full text-left text-sm" data-testid={testId}>
            <thead className="bg-gray-50 text-xs tracking-wide text-gray-600 uppercase dark:bg-gray-900 dark:text-gray-400">
              <tr>
                {head.map((h) => (
                  <th key={h} scope="col" className="px-4 py-2.5 font-semibold whitespace-nowrap">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-200 dark:divide-gray-800">
              {rows.map((cells, i) => (
                <tr key={i}>
                  {cells.map((cell, j) => (
                    <td key={j} className="px-4 py-2.5 align-top">
                      {cell}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
  const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');
  return (
    <>
      {table(
        'Credits',
        ['When', 'What', 'Credits', 'By'],
        detail.credit_events.map((e) => [utc(e.created_at), e.description, <span className="tabular-nums">{signed(e.credits)}</span>, e.admin ?? 'system']),
        'admin-order-credits',
      )}
      {detail.lot && (
        <p className={`mt-2 text-sm ${mutedClass}`}>
          {detail.lot.remaining.toLocaleString('en-US')} of {detail.lot.granted.toLocaleString('en-US')} credits of this order are unspent (valid until {utc(detail.lot.expires_at)}).
        </p>
      )}
      {table(
        'Refunds',
        ['When', 'Amount', 'Refunded in all', 'By'],
        detail.refunds.map((r) => [utc(r.created_at), formatUsd(r.amount_cents), formatUsd(r.refunded_cents), r.admin ?? '—']),
        'admin-order-refunds',
      )}
      {table(
        'Payment events',
        ['When', 'Event', 'Id'],
        detail.payment_events.map((e) => [utc(e.received_at), e.type, <code className="font-mono text-xs break-all">{e.id}</code>]),
        'admin-order-events',
      )}
    </>
  );
}
