import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { AdminOrderDetail, AdminOrderView, CheckoutView, CreditsView, LedgerEventView, OrderView, Paged } from 'src/contracts/billing';
import { creditsViewSchema, ledgerPageSchema, orderPageSchema, orderViewSchema } from 'src/contracts/billing.schema';
import { insertSignedInUser } from './support/accounts';
import type { InProcessApp } from './support/in-process-app';
import { linkToken, type MailSink } from './support/mail-sink';
import { startInProcessSite, type InProcessSite } from './support/site';
import { until } from './support/until';

const PASSWORD = 'correct horse battery';
const ADMIN = 'ops@example.com';
/** A second admin, for tests that cannot reuse the first one's session. */
const SUPPORT_ADMIN = 'support@example.com';
const DAY = 86_400_000;

/**
 * The embedded payment default end to end: no Stripe key, so checkout goes to the local test
 * checkout, whose Pay and Cancel buttons take the same fulfilment path as a Stripe webhook. The
 * web app runs without Redis, so it also runs the scheduled housekeeping itself (the worker runs the
 * same with Redis: test/worker.e2e-spec.ts).
 */
describe('credits with the local test checkout, end to end', () => {
  let site: InProcessSite;
  let mail: MailSink;
  let app: InProcessApp;
  let db: Client;
  let seeded: { userId: string; token: string };

  beforeAll(async () => {
    site = await startInProcessSite({
      mail: true,
      env: { HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true', ADMIN_EMAILS: `${ADMIN},${SUPPORT_ADMIN}`, NODE_ENV: 'production', MIGRATE_ON_START: 'true', TRUST_PROXY: 'true' },
      // Seeded before the process that runs the housekeeping starts: an expired lot and a stale
      // pending order are waiting for it.
      seed: (url) => seed(url),
    });
    ({ app } = site);
    mail = site.mail!;
  });

  async function seed(url: string) {
    db = new Client({ connectionString: url });
    await db.connect();
    const token = await insertSignedInUser(url, 'seeded@example.com');
    const { rows } = await db.query<{ id: string }>(`select id from users where email = 'seeded@example.com'`);
    seeded = { userId: rows[0]!.id, token };
    await db.query(
      `insert into credit_lots (user_id, source, source_ref, description, granted, remaining, expires_at, created_at)
       values ($1, 'admin', 'seed:old', 'Old credits', 5, 5, now() - interval '1 hour', now() - interval '30 days')`,
      [seeded.userId],
    );
    await db.query(
      `insert into credit_events (user_id, kind, credits, description) values ($1, 'grant', 5, 'Old credits')`,
      [seeded.userId],
    );
    await db.query(
      `insert into orders (number, user_id, kind, pack_id, description, credits, validity_days, amount_cents, status, gateway, gateway_session_id, created_at)
       values ('ORD-STALE001', $1, 'pack', 'starter', 'Starter pack', 100, 30, 299, 'pending', 'local', 'local_stale', now() - interval '2 days')`,
      [seeded.userId],
    );
  }

  afterAll(async () => {
    await db?.end();
    await site?.close();
  });

  let ip = '';
  beforeEach(() => {
    ip = `10.${[1, 2, 3].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;
  });

  const call = (method: string, path: string, { token, body, headers = {} }: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    fetch(`${app.url}${path}`, {
      method,
      headers: {
        'x-forwarded-for': ip,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function read<T>(path: string, token: string): Promise<T> {
    const response = await call('GET', path, { token });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  }

  /** Signs up, confirms from the captured email and signs in: the path a new user takes. */
  async function newUser(email = `player-${randomBytes(4).toString('hex')}@example.com`): Promise<{ email: string; token: string }> {
    const before = mail.delivered.length;
    expect((await call('POST', '/auth/sign_up', { body: { email, password: PASSWORD, password_confirmation: PASSWORD } })).status).toBe(202);
    const token = linkToken(await mail.waitFor(email, /Confirm your email/, before), '/auth/confirm');
    expect((await call('POST', '/auth/confirm', { body: { token } })).status).toBe(200);
    const signedIn = await call('POST', '/auth/sign_in', { body: { email, password: PASSWORD } });
    expect(signedIn.status).toBe(200);
    return { email, token: signedIn.headers.get('authorization')!.slice('Bearer '.length) };
  }

  async function pay(token: string, input: object, result: 'paid' | 'canceled' = 'paid'): Promise<OrderView> {
    const checkout = await call('POST', '/api/v1/checkout', { token, body: input });
    expect(checkout.status).toBe(201);
    const { order_id, url } = (await checkout.json()) as CheckoutView;
    expect(url).toBe(`/payment/test-checkout?order=${order_id}`);
    expect(await read<OrderView>(`/api/v1/orders/${order_id}`, token)).toMatchObject({ status: 'pending', test: true });
    const answer = await call('POST', `/api/v1/orders/${order_id}/test_payment`, { token, body: { result } });
    expect(answer.status).toBe(200);
    return (await answer.json()) as OrderView;
  }

  it('gives a confirmed account its 10 trial credits for 14 days, once', async () => {
    const { token } = await newUser();
    const credits = await read<CreditsView>('/api/v1/credits', token);
    expect(credits.balance).toBe(10);
    // The trial is not a payment: this account gets the donation offer when it runs out.
    expect(credits.has_paid).toBe(false);
    expect(credits.lots).toHaveLength(1);
    expect(credits.lots[0]).toMatchObject({ source: 'trial', granted: 10, remaining: 10, expiring_soon: false });
    const days = (Date.parse(credits.lots[0]!.expires_at) - Date.now()) / DAY;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);
    expect(credits.daily_usage).toHaveLength(30);
    // The answers are what the OpenAPI document says they are.
    creditsViewSchema.parse(credits);
    const history = ledgerPageSchema.parse(await read<Paged<LedgerEventView>>('/api/v1/credits/history', token));
    expect(history.items.map((e) => [e.kind, e.credits, e.description])).toEqual([['grant', 10, 'Free trial: 10 credits for 14 days']]);
  });

  it('buys a pack and a $2 donation through the test checkout: the orders, the lots and the balance follow', async () => {
    const { token } = await newUser();
    const pack = await pay(token, { pack_id: 'starter' });
    expect(pack).toMatchObject({ status: 'paid', amount_cents: 299, credits: 100, payment_method: 'Test card •••• 4242', test: true });
    expect(pack.number).toMatch(/^ORD-[0-9A-Z]{8}$/);
    const donation = await pay(token, { donation_usd: 2 });
    expect(donation).toMatchObject({ status: 'paid', amount_cents: 200, credits: 100, kind: 'donation' });

    const credits = await read<CreditsView>('/api/v1/credits', token);
    expect(credits.balance).toBe(210);
    expect(credits.lots.map((l) => l.source)).toEqual(['trial', 'pack', 'donation']);
    const donated = (Date.parse(credits.lots[2]!.expires_at) - Date.now()) / DAY;
    expect(Math.round(donated)).toBe(365);

    const orders = orderPageSchema.parse(await read<Paged<OrderView>>('/api/v1/orders', token));
    expect(orders.items.map((o) => o.id)).toEqual([donation.id, pack.id]);
    orderViewSchema.parse(pack);

    // Pressing Pay again changes nothing; Cancel after paying is refused.
    expect((await call('POST', `/api/v1/orders/${pack.id}/test_payment`, { token, body: { result: 'paid' } })).status).toBe(200);
    expect((await call('POST', `/api/v1/orders/${pack.id}/test_payment`, { token, body: { result: 'canceled' } })).status).toBe(409);
    expect((await read<CreditsView>('/api/v1/credits', token)).balance).toBe(210);
  });

  it('cancels an order without credits, and a cancelled order can no longer be paid', async () => {
    const { token } = await newUser();
    const canceled = await pay(token, { pack_id: 'popular' }, 'canceled');
    expect(canceled.status).toBe('canceled');
    const again = await call('POST', `/api/v1/orders/${canceled.id}/test_payment`, { token, body: { result: 'paid' } });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'BILLING.NOT_PAYABLE' });
    expect((await read<CreditsView>('/api/v1/credits', token)).balance).toBe(10);
  });

  it("keeps one user's orders from another: pay, read or cancel someone else's order is a 404", async () => {
    const owner = await newUser();
    const other = await newUser();
    const checkout = await call('POST', '/api/v1/checkout', { token: owner.token, body: { pack_id: 'starter' } });
    const { order_id } = (await checkout.json()) as CheckoutView;
    expect((await call('GET', `/api/v1/orders/${order_id}`, { token: other.token })).status).toBe(404);
    expect((await call('POST', `/api/v1/orders/${order_id}/test_payment`, { token: other.token, body: { result: 'paid' } })).status).toBe(404);
    expect((await read<CreditsView>('/api/v1/credits', other.token)).balance).toBe(10);
  });

  it('lets an admin refund part of a test order (the refunded share of unspent credits goes) and grant credits with a reason, once per key', async () => {
    const { token, email } = await newUser();
    const admin = await site.signedInUser(ADMIN);
    const order = await pay(token, { pack_id: 'starter' });

    const path = `/api/v1/admin/orders/${order.id}/refund`;
    const key = () => ({ 'idempotency-key': `refund-${randomBytes(6).toString('hex')}` });
    // Without a key a retry could refund twice: refused.
    const keyless = await call('POST', path, { token: admin, body: { amount_cents: 150 } });
    expect(keyless.status).toBe(400);
    expect(await keyless.json()).toMatchObject({ code: 'REQUEST.INVALID', errors: [expect.stringContaining('Idempotency-Key')] });

    const first = key();
    const refund = await call('POST', path, { token: admin, body: { amount_cents: 150 }, headers: first });
    expect(refund.status).toBe(200);
    const answer = await refund.json();
    expect(answer).toMatchObject({ status: 'partially_refunded', refunded_cents: 150 });
    // 150 of 299 cents: ceil(100 * 150 / 299) = 51 credits back.
    expect((await read<CreditsView>('/api/v1/credits', token)).balance).toBe(10 + 100 - 51);
    // The same request again (a network retry): the first result, nothing refunded twice.
    const again = await call('POST', path, { token: admin, body: { amount_cents: 150 }, headers: first });
    expect([again.status, await again.json()]).toEqual([200, answer]);
    expect((await read<CreditsView>('/api/v1/credits', token)).balance).toBe(10 + 100 - 51);
    // The key belongs to that refund: another amount under it is a conflict.
    expect((await call('POST', path, { token: admin, body: { amount_cents: 20 }, headers: first })).status).toBe(409);

    expect((await call('POST', path, { token, body: {}, headers: key() })).status).toBe(403);
    expect((await call('POST', path, { token: admin, body: { amount_cents: 500 }, headers: key() })).status).toBe(409);
    // All that is left, sent ten times at once with one key, with no body at all (as docs/features.md says): refunded once.
    const rest = key();
    const answers = await Promise.all(Array.from({ length: 10 }, () => call('POST', path, { token: admin, headers: rest })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    for (const a of answers) expect(await a.json()).toMatchObject({ status: 'refunded', refunded_cents: 299 });
    expect((await read<CreditsView>('/api/v1/credits', token)).balance).toBe(10);
    const refunds = await db.query(`select amount_cents, admin_id from order_refunds where order_id = $1 order by created_at`, [order.id]);
    const { rows: admins } = await db.query<{ id: string }>(`select id from users where email = $1`, [ADMIN]);
    expect(refunds.rows).toEqual([
      { amount_cents: 150, admin_id: admins[0]!.id },
      { amount_cents: 149, admin_id: admins[0]!.id },
    ]);

    // The admin's view of it: the buyer's address, the credits granted and taken back (by whom), the refunds and the events.
    const found = await read<Paged<AdminOrderView>>(`/api/v1/admin/orders?email=${encodeURIComponent(email.slice(0, 12).toUpperCase())}`, admin);
    expect(found.items.map((o) => [o.id, o.email])).toEqual([[order.id, email]]);
    expect((await read<Paged<AdminOrderView>>(`/api/v1/admin/orders?number=${order.number.slice(4)}`, admin)).items.map((o) => o.id)).toEqual([order.id]);
    const detail = await read<AdminOrderDetail>(`/api/v1/admin/orders/${order.id}`, admin);
    expect(detail).toMatchObject({ order: { email, status: 'refunded' }, refundable_cents: 0, credits_revoked: 100, lot: { granted: 100, remaining: 0 } });
    expect(detail.credit_events.map((e) => [e.kind, e.credits, e.admin])).toEqual([
      ['grant', 100, null],
      ['revoke', -51, ADMIN],
      ['revoke', -49, ADMIN],
    ]);
    expect(detail.refunds.map((r) => [r.amount_cents, r.refunded_cents, r.admin])).toEqual([
      [150, 150, ADMIN],
      [149, 299, ADMIN],
    ]);
    expect(detail.payment_events.map((e) => e.type)).toEqual(['paid', 'refunded', 'refunded']);

    const grant = { email: email.toUpperCase(), credits: 25, validity_days: 30, reason: 'Sorry for the outage on Monday' };
    const headers = { 'idempotency-key': `support-ticket-${randomBytes(4).toString('hex')}` };
    for (let i = 0; i < 2; i++) {
      const answer = await call('POST', '/api/v1/admin/credits', { token: admin, body: grant, headers });
      expect(answer.status).toBe(201);
      expect(await answer.json()).toEqual({ granted: i === 0 });
    }
    expect((await read<CreditsView>('/api/v1/credits', token)).balance).toBe(35);
    const history = await read<Paged<LedgerEventView>>('/api/v1/credits/history', token);
    expect(history.items[0]).toMatchObject({ kind: 'grant', credits: 25, description: 'Sorry for the outage on Monday' });
    expect(history.items.filter((e) => e.kind === 'revoke').map((e) => e.credits)).toEqual([-49, -51]);
    const unknown = await call('POST', '/api/v1/admin/credits', { token: admin, body: { ...grant, email: 'nobody@example.com' } });
    expect(unknown.status).toBe(404);
    expect((await call('POST', '/api/v1/admin/credits', { token, body: grant })).status).toBe(403);
  });

  it('refunds once when one Idempotency-Key arrives for ten orders at once: the others get 409 BILLING.REFUND_KEY_REUSED, never 500', async () => {
    const { token } = await newUser();
    const admin = await site.signedInUser(ADMIN);
    const orders: OrderView[] = [];
    for (let i = 0; i < 10; i++) orders.push(await pay(token, { pack_id: 'starter' }));
    const headers = { 'idempotency-key': `shared-${randomBytes(6).toString('hex')}` };
    const answers = await Promise.all(orders.map((o) => call('POST', `/api/v1/admin/orders/${o.id}/refund`, { token: admin, body: { amount_cents: 100 }, headers })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    for (const a of answers.filter((r) => r.status === 409)) expect(await a.json()).toMatchObject({ code: 'BILLING.REFUND_KEY_REUSED' });
    const { rows } = await db.query(`select refunded_cents from orders where id = any($1)`, [orders.map((o) => o.id)]);
    expect(rows.map((r: { refunded_cents: number }) => r.refunded_cents).sort((a: number, b: number) => a - b)).toEqual([...Array(9).fill(0), 100]);
  });

  it('gives the trial once per normalised address: a +tag account is created without one, and /api/v1/credits says so', async () => {
    const name = `ann.${randomBytes(4).toString('hex')}`;
    const first = await newUser(`${name}@gmail.com`);
    expect(await read<CreditsView>('/api/v1/credits', first.token)).toMatchObject({ balance: 10, trial_refused: false });
    for (const email of [`${name}+promo@gmail.com`, `${name.replace('.', '')}@googlemail.com`]) {
      const again = await newUser(email);
      expect(await read<CreditsView>('/api/v1/credits', again.token)).toMatchObject({ balance: 0, lots: [], trial_refused: true });
    }
    const other = await newUser(`${name}+x@example.com`);
    expect((await read<CreditsView>('/api/v1/credits', other.token)).balance).toBe(10);
  });

  it("scopes the admin grant's Idempotency-Key per account: one key grants two accounts once each", async () => {
    const adminSession = await site.signedInUser(SUPPORT_ADMIN);
    const [a, b] = [await newUser(), await newUser()];
    const headers = { 'idempotency-key': `ticket-${randomBytes(4).toString('hex')}` };
    for (const user of [a, b, a, b]) {
      const answer = await call('POST', '/api/v1/admin/credits', {
        token: adminSession,
        body: { email: user.email, credits: 7, validity_days: 30, reason: 'Goodwill credits' },
        headers,
      });
      expect(answer.status).toBe(201);
    }
    expect((await read<CreditsView>('/api/v1/credits', a.token)).balance).toBe(17);
    expect((await read<CreditsView>('/api/v1/credits', b.token)).balance).toBe(17);
  });

  it('lists /pricing, /tools/image and the refund policy in the sitemap while payments are on', async () => {
    const xml = await (await fetch(`${app.url}/sitemap.xml`)).text();
    const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    expect(paths).toEqual(expect.arrayContaining(['/pricing', '/tools/image', '/refund-policy']));
  });

  it('resumes or cancels a pending order from /billing: back to its checkout, or closed for good', async () => {
    const { token } = await newUser();
    const checkout = await call('POST', '/api/v1/checkout', { token, body: { donation_usd: 2 } });
    const { order_id } = (await checkout.json()) as CheckoutView;
    const resumed = await call('POST', `/api/v1/orders/${order_id}/resume`, { token });
    expect([resumed.status, await resumed.json()]).toEqual([200, { order_id, url: `/payment/test-checkout?order=${order_id}` }]);
    for (let i = 0; i < 2; i++) {
      const canceled = await call('POST', `/api/v1/orders/${order_id}/cancel`, { token });
      expect([canceled.status, ((await canceled.json()) as OrderView).status]).toEqual([200, 'canceled']);
    }
    expect((await call('POST', `/api/v1/orders/${order_id}/resume`, { token })).status).toBe(409);
    expect((await call('POST', `/api/v1/orders/${order_id}/test_payment`, { token, body: { result: 'paid' } })).status).toBe(409);
    const paid = await pay(token, { pack_id: 'starter' });
    expect((await call('POST', `/api/v1/orders/${paid.id}/cancel`, { token })).status).toBe(409);
    const other = await newUser();
    expect((await call('POST', `/api/v1/orders/${order_id}/resume`, { token: other.token })).status).toBe(404);
  });

  it('runs the housekeeping in the web process without Redis: expiries reach the history, stale pending orders expire', async () => {
    await until('the expiry of the seeded lot', async () => {
      const { rows } = await db.query(`select 1 from credit_events where user_id = $1 and kind = 'expire'`, [seeded.userId]);
      return rows.length > 0;
    });
    const history = await read<Paged<LedgerEventView>>('/api/v1/credits/history', seeded.token);
    expect(history.items.find((e) => e.kind === 'expire')).toMatchObject({ credits: -5, description: 'Expired: Old credits' });
    await until('the stale order to expire', async () => {
      const orders = await read<Paged<OrderView>>('/api/v1/orders', seeded.token);
      return orders.items.find((o) => o.number === 'ORD-STALE001')?.status === 'expired';
    });
    // The seeded account was confirmed before payments were on: the housekeeping owed it its trial.
    expect((await read<CreditsView>('/api/v1/credits', seeded.token)).balance).toBe(10);
  });
});
