import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';
import type { CheckoutView, ExportView, OrderExportRow, OrderView, ReceiptView } from 'src/contracts/billing';
import { receiptSchema } from 'src/contracts/billing.schema';
import { startInProcessSite, type InProcessSite } from './support/site';

const ADMIN = 'money-admin@example.com';

/**
 * Receipts, self-service refunds and the exports over HTTP, on PostgreSQL with the test checkout:
 * what a buyer, a stranger and an admin get, the refund rule's edges, and ten clicks at once.
 */
describe('receipts, self-service refunds and exports', () => {
  let site: InProcessSite;
  let db: Client;

  beforeAll(async () => {
    // No trial: the buyers are written straight into the database, without one, and the credits
    // housekeeping (2 s after start, then every minute) would grant it in the middle of a test.
    site = await startInProcessSite({
      env: { HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true', TRIAL_CREDITS: '0', ADMIN_EMAILS: ADMIN, SELLER_NAME: 'Doors Guide Ltd', SELLER_ADDRESS: '1 Puzzle Lane; Escape City' },
    });
    db = await site.db();
  });

  afterAll(async () => {
    await site?.close();
  });

  const call = (method: string, path: string, token?: string, body?: unknown) =>
    fetch(`${site.url}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), origin: site.url },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function newUser(): Promise<{ email: string; token: string; id: string }> {
    const email = `buyer-${randomBytes(4).toString('hex')}@example.com`;
    const token = await site.signedInUser(email);
    const { rows } = await db.query<{ id: string }>(`select id from users where email = $1`, [email]);
    return { email, token, id: rows[0]!.id };
  }

  async function pay(token: string, input: object): Promise<OrderView> {
    const checkout = await call('POST', '/api/v1/checkout', token, input);
    expect(checkout.status).toBe(201);
    const { order_id } = (await checkout.json()) as CheckoutView;
    const paid = await call('POST', `/api/v1/orders/${order_id}/test_payment`, token, { result: 'paid' });
    expect(paid.status).toBe(200);
    return (await paid.json()) as OrderView;
  }

  /** Credits of the order's lot used, as the image tool would have: its remaining lowered. */
  const use = (orderId: string, credits: number) => db.query(`update credit_lots set remaining = remaining - $2 where source_ref = $1`, [`order:${orderId}`, credits]);

  it('shows a receipt to its buyer and to admins, marked as test mode; a stranger gets 404', async () => {
    const buyer = await newUser();
    const order = await pay(buyer.token, { pack_id: 'starter' });
    const answer = await call('GET', `/api/v1/orders/${order.id}/receipt`, buyer.token);
    expect(answer.status).toBe(200);
    const receipt = receiptSchema.parse(await answer.json());
    expect(receipt).toMatchObject({
      seller: { name: 'Doors Guide Ltd', address: ['1 Puzzle Lane', 'Escape City'] },
      buyer_email: buyer.email,
      items: [{ description: 'Starter pack: 100 credits', quantity: 1, credits: 100, amount_cents: 299 }],
      refunds: [],
      invoice_url: null,
      order: { id: order.id, status: 'paid', test: true, payment_method: 'Test card •••• 4242', currency: 'usd' },
    });
    const admin = await site.signedInUser(ADMIN);
    expect((await call('GET', `/api/v1/orders/${order.id}/receipt`, admin)).status).toBe(200);
    const stranger = await newUser();
    const refused = await call('GET', `/api/v1/orders/${order.id}/receipt`, stranger.token);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ code: 'BILLING.ORDER_NOT_FOUND' });
    expect((await call('GET', `/api/v1/orders/${order.id}/receipt`)).status).toBe(401);
  });

  it('refunds a fresh pack to its buyer, unused credits taken back, and the receipt shows the refund', async () => {
    const buyer = await newUser();
    const order = await pay(buyer.token, { pack_id: 'starter' });
    expect(order.self_refund).toEqual({ allowed: true, reason: null });
    await use(order.id, 9);
    const answer = await call('POST', `/api/v1/orders/${order.id}/refund`, buyer.token);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ status: 'refunded', refunded_cents: 299, credits_taken_back: 91, self_refund: { allowed: false, reason: 'This order was refunded already.' } });
    const credits = (await (await call('GET', '/api/v1/credits', buyer.token)).json()) as { balance: number };
    expect(credits.balance).toBe(0);
    const receipt = (await (await call('GET', `/api/v1/orders/${order.id}/receipt`, buyer.token)).json()) as ReceiptView;
    expect(receipt.refunds).toEqual([{ amount_cents: 299, created_at: expect.any(String), by: 'you' }]);
    // Again: the same refunded order, nothing more refunded.
    const again = await call('POST', `/api/v1/orders/${order.id}/refund`, buyer.token);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ status: 'refunded', refunded_cents: 299 });
  });

  it('refunds once for ten clicks at once', async () => {
    const buyer = await newUser();
    const order = await pay(buyer.token, { pack_id: 'popular' });
    const answers = await Promise.all(Array.from({ length: 10 }, () => call('POST', `/api/v1/orders/${order.id}/refund`, buyer.token)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    for (const a of answers) expect(await a.json()).toMatchObject({ status: 'refunded', refunded_cents: 999 });
    const { rows } = await db.query<{ n: string; total: string }>(`select count(*) as n, sum(amount_cents) as total from order_refunds where order_id = $1`, [order.id]);
    expect(rows[0]).toEqual({ n: '1', total: '999' });
    const events = await db.query(`select 1 from credit_events e join credit_lots l on l.id = e.lot_id where l.source_ref = $1 and e.kind = 'revoke'`, [`order:${order.id}`]);
    expect(events.rowCount).toBe(1);
  });

  it('says why an order does not qualify: outside the window, over the usage limit, a donation', async () => {
    const buyer = await newUser();
    const old = await pay(buyer.token, { pack_id: 'starter' });
    await db.query(`update orders set paid_at = now() - interval '15 days' where id = $1`, [old.id]);
    const late = await call('POST', `/api/v1/orders/${old.id}/refund`, buyer.token);
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ code: 'BILLING.REFUND_NOT_POSSIBLE', errors: ['It was paid more than 14 days ago.'] });

    const used = await pay(buyer.token, { pack_id: 'starter' });
    await use(used.id, 10);
    const over = await call('POST', `/api/v1/orders/${used.id}/refund`, buyer.token);
    expect(over.status).toBe(409);
    expect(await over.json()).toMatchObject({ errors: ['10 of its 100 credits are used: 10% or more.'] });

    const donation = await pay(buyer.token, { donation_usd: 2 });
    expect(donation.self_refund).toEqual({ allowed: false, reason: 'Donations are not refundable from this page.' });
    expect((await call('POST', `/api/v1/orders/${donation.id}/refund`, buyer.token)).status).toBe(409);
    // Someone else's order: as if it did not exist.
    const stranger = await newUser();
    const fresh = await pay(buyer.token, { pack_id: 'starter' });
    expect((await call('POST', `/api/v1/orders/${fresh.id}/refund`, stranger.token)).status).toBe(404);
    // Nothing was refunded by any of these.
    const { rows } = await db.query<{ refunded: string }>(`select coalesce(sum(refunded_cents), 0) as refunded from orders where user_id = $1`, [buyer.id]);
    expect(rows[0]!.refunded).toBe('0');
  });

  it('exports the orders as CSV in the asked time zone, with totals, formula cells escaped, one user only', async () => {
    const buyer = await newUser();
    const pack = await pay(buyer.token, { pack_id: 'starter' });
    await pay(buyer.token, { donation_usd: 3 });
    expect((await call('POST', `/api/v1/orders/${pack.id}/refund`, buyer.token)).status).toBe(200);
    // A description a spreadsheet would run as a formula (descriptions come from content files).
    await db.query(`update orders set description = '=HYPERLINK("http://evil.example","x")', created_at = '2026-01-15T23:30:00Z' where id = $1`, [pack.id]);
    const other = await newUser();
    await pay(other.token, { pack_id: 'pro' });

    const answer = await call('GET', '/api/v1/exports/orders?tz=Europe/Berlin', buyer.token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="orders-\d{4}-\d\d-\d\d\.csv"$/);
    const lines = (await answer.text()).replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('Order,Date (Europe/Berlin),Description,Status,Amount (USD),Refunded (USD),Credits,Payment method');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe(`${pack.number},2026-01-16 00:30:00,"'=HYPERLINK(""http://evil.example"",""x"")",refunded,2.99,2.99,100,Test card •••• 4242`);
    expect(lines[2]).toMatch(/,Donation of \$3: 150 credits,paid,3.00,0.00,150,/);
    expect(lines[3]).toBe('Total (paid orders),,2 orders; net 3.00 USD,,5.99,2.99,250,');
    expect(lines.join('\n')).not.toContain('Pro pack');

    const json = (await (await call('GET', '/api/v1/exports/orders?format=json&tz=America/New_York', buyer.token)).json()) as ExportView<OrderExportRow>;
    expect(json.time_zone).toBe('America/New_York');
    expect(json.rows[0]!.date).toBe('2026-01-15 18:30:00');
    expect(json.totals).toEqual({ orders: 2, paid_usd: '5.99', refunded_usd: '2.99', net_usd: '3.00', credits_bought: 250 });
    const badZone = await call('GET', '/api/v1/exports/orders?tz=Mars/Olympus', buyer.token);
    expect(badZone.status).toBe(400);
  });

  it('exports the credit history with lot, reason, amount and balance after, and totals', async () => {
    const buyer = await newUser();
    const pack = await pay(buyer.token, { pack_id: 'starter' });
    await db.query(
      `insert into credit_events (user_id, kind, credits, lot_id, description)
       select user_id, 'grant', 5, id, '@SUM(1+1) by an admin' from credit_lots where source_ref = $1`,
      [`order:${pack.id}`],
    );
    const answer = await call('GET', '/api/v1/exports/credit-history?tz=UTC', buyer.token);
    expect(answer.status).toBe(200);
    const lines = (await answer.text()).replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('Date (UTC),Kind,Lot,Reason,Credits,Balance after');
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,grant,Starter pack: 100 credits \(ORD-\w{8}\),Starter pack: 100 credits \(ORD-\w{8}\),100,100$/);
    expect(lines[2]).toMatch(/,grant,Starter pack.*,'@SUM\(1\+1\) by an admin,5,105$/);
    expect(lines[3]).toBe('Total,,,"granted 105, spent 0, taken back 0, expired 0",105,105');
  });

  it('shows the refund rule in numbers with the pricing', async () => {
    const pricing = (await (await call('GET', '/api/v1/pricing')).json()) as { refund_rule: unknown };
    expect(pricing.refund_rule).toEqual({ window_days: 14, max_used_percent: 10 });
  });
});
