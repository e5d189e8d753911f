import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';
import type { AccountExport } from 'src/contracts/account-export';
import type { CheckoutView, CreditsView } from 'src/contracts/billing';
import { linkToken, type MailSink } from './support/mail-sink';
import { startInProcessSite, type InProcessSite } from './support/site';
import { until } from './support/until';

const PASSWORD = 'correct horse battery';

/**
 * "Download my data" and "Delete my account" over HTTP on PostgreSQL: the export holds every kind
 * of record and no secret; after a deletion no column of any table holds the account's id or
 * address, its orders stay under another id, and the address signs up again without a second trial.
 */
describe('the account: data export and deletion', () => {
  let site: InProcessSite;
  let db: Client;
  let mail: MailSink;

  beforeAll(async () => {
    site = await startInProcessSite({ mail: true, env: { HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true', TRIAL_CREDITS: '10' } });
    db = await site.db();
    mail = site.mail!;
  });

  afterAll(async () => {
    await site?.close();
  });

  const call = (method: string, path: string, token?: string, body?: unknown) =>
    fetch(`${site.url}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** Signs up, confirms from the mail (the trial is granted) and signs in. */
  async function signUp(email: string): Promise<{ token: string; id: string }> {
    const before = mail.delivered.length;
    expect((await call('POST', '/auth/sign_up', undefined, { email, password: PASSWORD, password_confirmation: PASSWORD })).status).toBe(202);
    const token = linkToken(await mail.waitFor(email, /Confirm your email/, before), '/auth/confirm');
    expect((await call('POST', '/auth/confirm', undefined, { token })).status).toBe(200);
    const signedIn = await call('POST', '/auth/sign_in', undefined, { email, password: PASSWORD });
    expect(signedIn.status).toBe(200);
    const { rows } = await db.query<{ id: string }>(`select id from users where email = $1`, [email]);
    return { token: signedIn.headers.get('authorization')!.slice('Bearer '.length), id: rows[0]!.id };
  }

  async function pay(token: string, input: object): Promise<string> {
    const { order_id } = (await (await call('POST', '/api/v1/checkout', token, input)).json()) as CheckoutView;
    expect((await call('POST', `/api/v1/orders/${order_id}/test_payment`, token, { result: 'paid' })).status).toBe(200);
    return order_id;
  }

  /** A user with one of every kind of record: a paid and refunded pack, a donation, progress, an image job, a reminder, mail switches. */
  async function userWithEverything(email: string) {
    const user = await signUp(email);
    const pack = await pay(user.token, { pack_id: 'starter' });
    expect((await call('POST', `/api/v1/orders/${pack}/refund`, user.token)).status).toBe(200);
    const donation = await pay(user.token, { donation_usd: 1 });
    await db.query(`insert into account_progress (user_id, level_number, state, changed_at) values ($1, 7, 'solved', now())`, [user.id]);
    const { rows } = await db.query<{ id: string }>(
      `insert into image_jobs (id, user_id, conversion, source, status, created_at, finished_at) values (gen_random_uuid(), $1, 'upscale-2x', 'upload', 'succeeded', now(), now()) returning id`,
      [user.id],
    );
    await db.query(`insert into credit_reminders (user_id, kind, ref) values ($1, 'expiry', 'lot')`, [user.id]);
    expect((await call('PUT', '/api/v1/account/mail-preferences', user.token, { low_balance: false })).status).toBe(200);
    return { ...user, orders: [pack, donation], imageJob: rows[0]!.id };
  }

  it('exports every kind of record the site holds about the account, and no secret', async () => {
    const email = `export-${randomBytes(4).toString('hex')}@example.com`;
    const user = await userWithEverything(email);
    const answer = await call('GET', '/api/v1/account/export', user.token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="my-data-/);
    const text = await answer.text();
    const data = JSON.parse(text) as AccountExport;
    expect(data.account).toMatchObject({ email, sign_in_methods: { password: true, google: false } });
    expect(data.sessions.length).toBeGreaterThanOrEqual(1);
    expect(data.progress).toEqual([{ level: 7, state: 'solved', changed_at: expect.any(String) }]);
    expect(data.credits.lots.map((l) => l.source).sort()).toEqual(['donation', 'pack', 'trial']);
    expect(data.credits.history.map((e) => e.kind)).toEqual(expect.arrayContaining(['grant', 'revoke']));
    expect(data.orders.map((o) => [o.kind, o.status, o.refunds.length])).toEqual([
      ['pack', 'refunded', 1],
      ['donation', 'paid', 0],
    ]);
    expect(data.image_jobs).toEqual([expect.objectContaining({ id: user.imageJob, files: [`/api/v1/images/${user.imageJob}/preview`, `/api/v1/images/${user.imageJob}/result`, `/api/v1/images/${user.imageJob}/thumbnail`] })]);
    expect(data.reminders_sent).toHaveLength(1);
    expect(data.mail_preferences).toEqual({ low_balance: false, expiry: true });
    expect(data.kept_after_deletion).toMatch(/payment records/);
    expect(data.guide_reports_and_votes).toMatch(/anonymous/);
    // No secret: not the bearer token, nor any stored hash of a password, session or link.
    const { rows } = await db.query<{ secret: string }>(
      `select password_hash as secret from users where id = $1 union all select token_hash from sessions where user_id = $1 union all select token_hash from one_time_tokens where user_id = $1`,
      [user.id],
    );
    for (const secret of [user.token, ...rows.map((r) => r.secret)]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/token_hash|password_hash|\$argon2/i);
  });

  it('deletes the account: confirmed, refused while an image converts, nothing left but pseudonymous orders, the address can sign up again without a trial', async () => {
    const email = `leaver-${randomBytes(4).toString('hex')}@example.com`;
    const user = await userWithEverything(email);

    const wrong = await call('DELETE', '/api/v1/account', user.token, { password: 'not my password' });
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toMatchObject({ code: 'AUTH.REAUTHENTICATION_REQUIRED' });
    // Without the password, only a fresh sign-in will do.
    await db.query(`update sessions set created_at = now() - interval '1 hour' where user_id = $1`, [user.id]);
    expect((await call('DELETE', '/api/v1/account', user.token, {})).status).toBe(403);

    await db.query(`update image_jobs set status = 'running' where id = $1`, [user.imageJob]);
    const busy = await call('DELETE', '/api/v1/account', user.token, { password: PASSWORD });
    expect(busy.status).toBe(409);
    expect(await busy.json()).toMatchObject({ code: 'ACCOUNT.IMAGE_JOB_RUNNING' });
    await db.query(`update image_jobs set status = 'succeeded' where id = $1`, [user.imageJob]);

    const before = mail.delivered.length;
    const deleted = await call('DELETE', '/api/v1/account', user.token, { password: PASSWORD });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toMatchObject({ deleted: true, kept: expect.stringMatching(/payment records/) });
    const confirmation = await mail.waitFor(email, /account is deleted/, before);
    expect(confirmation.raw).toContain('payment records');
    expect((await call('GET', '/api/v1/account', user.token)).status).toBe(401);

    // Every column of every table, by the database's own catalogue: neither the id nor the address anywhere.
    await until('the confirmation to leave the outbox', async () => (await db.query(`select 1 from mail_outbox where "to" = $1`, [email])).rowCount === 0);
    const { rows: columns } = await db.query<{ table_name: string; column_name: string }>(
      `select c.table_name, c.column_name from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
        where c.table_schema = 'public' and t.table_type = 'BASE TABLE' and c.data_type in ('uuid', 'text', 'character varying', 'character', 'json', 'jsonb')`,
    );
    expect(columns.length).toBeGreaterThan(50);
    const found: string[] = [];
    for (const { table_name, column_name } of columns) {
      const { rows } = await db.query(`select 1 from "${table_name}" where "${column_name}"::text = $1 or "${column_name}"::text ilike $2 limit 1`, [user.id, `%${email}%`]);
      if (rows.length) found.push(`${table_name}.${column_name}`);
    }
    expect(found).toEqual([]);

    // The orders stay, with their amounts and dates, under one id that is no account's.
    const { rows: orders } = await db.query<{ user_id: string; amount_cents: number; refunded_cents: number }>(`select user_id, amount_cents, refunded_cents from orders where id = any($1) order by amount_cents desc`, [user.orders]);
    expect(orders.map((o) => [o.amount_cents, o.refunded_cents])).toEqual([
      [299, 299],
      [100, 0],
    ]);
    expect(new Set(orders.map((o) => o.user_id)).size).toBe(1);
    expect((await db.query(`select 1 from users where id = $1`, [orders[0]!.user_id])).rowCount).toBe(0);

    // The same address is a new account, without a second free trial.
    const again = await signUp(email);
    expect(again.id).not.toBe(user.id);
    const credits = (await (await call('GET', '/api/v1/credits', again.token)).json()) as CreditsView;
    expect(credits).toMatchObject({ balance: 0, trial_refused: true });
    expect((await (await call('GET', '/api/v1/orders', again.token)).json()) as { total: number }).toMatchObject({ total: 0 });
  });
});
