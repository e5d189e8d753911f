import { randomBytes } from 'node:crypto';
import type { Client } from 'pg';
import type { MailSink } from './support/mail-sink';
import { startSite, type Site } from './support/site';

/**
 * The reminder mails end to end: two workers on one Redis and PostgreSQL mail each reminder once,
 * with RFC 8058 headers, and the one-click unsubscribe works without signing in; a forged link does not.
 */
describe('reminder mails with two workers, and their one-click unsubscribe', () => {
  let site: Site;
  let db: Client;
  let mail: MailSink;

  beforeAll(async () => {
    site = await startSite({
      mail: true,
      redis: true,
      worker: true,
      env: { HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true', AUTH_SECRET: 'r'.repeat(43), REMINDER_INTERVAL_MS: '500' },
    });
    await site.startWorker();
    db = await site.db();
    mail = site.mail!;
  });

  afterAll(async () => {
    await site?.close();
  });

  async function userWithLots(lots: { credits: number; days: number; spent?: number }[]): Promise<{ id: string; email: string; token: string }> {
    const email = `reminded-${randomBytes(4).toString('hex')}@example.com`;
    const token = await site.signedInUser(email);
    const { rows } = await db.query<{ id: string }>(`select id from users where email = $1`, [email]);
    const id = rows[0]!.id;
    for (const [i, lot] of lots.entries()) {
      const { rows: made } = await db.query<{ id: string }>(
        `insert into credit_lots (user_id, source, source_ref, description, granted, remaining, expires_at)
         values ($1, 'admin', $2, 'Test credits', $3, $4, now() + make_interval(days => $5)) returning id`,
        [id, `test:${id}:${i}`, lot.credits, lot.credits - (lot.spent ?? 0), lot.days],
      );
      await db.query(`insert into credit_events (user_id, kind, credits, lot_id, description) values ($1, 'grant', $2, $3, 'Test credits')`, [id, lot.credits, made[0]!.id]);
      if (lot.spent) {
        const { rows: charge } = await db.query<{ id: string }>(
          `insert into credit_charges (user_id, idempotency_key, amount, state, description) values ($1, $2, $3, 'captured', 'Image conversion') returning id`,
          [id, `test-spend:${id}:${i}`, lot.spent],
        );
        await db.query(`insert into credit_events (user_id, kind, credits, charge_id, description) values ($1, 'spend', $2, $3, 'Image conversion')`, [id, -lot.spent, charge[0]!.id]);
      }
    }
    return { id, email, token };
  }

  /** A header's value, unfolded (RFC 5322: a long header continues on lines starting with a space). */
  const header = (raw: string, name: string) => new RegExp(`^${name}:(.*)$`, 'im').exec(raw.replace(/\r?\n(?=[ \t])/g, ''))?.[1]?.trim();

  it('mails a low balance and a lot about to expire once each, across two workers, with a one-click unsubscribe', async () => {
    const user = await userWithLots([{ credits: 5, days: 30, spent: 3 }]);
    const expiring = await userWithLots([{ credits: 40, days: 3 }]);
    const low = await mail.waitFor(user.email, /You have 2 credits left/);
    const expiry = await mail.waitFor(expiring.email, /40 credits expire on/);
    // A later reminder, mailed after several more runs of both workers: by then a second copy would be here.
    const sentinel = await userWithLots([{ credits: 9, days: 2 }]);
    await mail.waitFor(sentinel.email, /9 credits expire on/);
    expect(mail.delivered.filter((m) => m.to.includes(user.email))).toHaveLength(1);
    expect(mail.delivered.filter((m) => m.to.includes(expiring.email))).toHaveLength(1);

    expect(header(low.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const target = /^<(.+)>$/.exec(header(expiry.raw, 'List-Unsubscribe') ?? '')?.[1];
    expect(target).toMatch(/\/api\/v1\/reminders\/unsubscribe\?token=/);
    // What a mail provider sends for the one click: a form POST, no cookie, no session.
    const url = new URL(target!);
    const clicked = await fetch(`${site.url}${url.pathname}${url.search}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(clicked.status).toBe(200);
    expect(await clicked.json()).toEqual({ unsubscribed: 'expiry' });
    const preferences = await fetch(`${site.url}/api/v1/account/mail-preferences`, { headers: { authorization: `Bearer ${expiring.token}` } });
    expect(await preferences.json()).toEqual({ low_balance: true, expiry: false });
  });

  it('refuses a forged or altered unsubscribe link', async () => {
    const victim = await userWithLots([]);
    for (const token of [`${victim.id}.expiry.${'A'.repeat(43)}`, `${victim.id}.low_balance.forged`, 'nonsense']) {
      const answer = await fetch(`${site.url}/api/v1/reminders/unsubscribe?token=${encodeURIComponent(token)}`, { method: 'POST' });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ code: 'CREDITS.INVALID_UNSUBSCRIBE_LINK' });
    }
    const { rows } = await db.query(`select 1 from mail_preferences where user_id = $1`, [victim.id]);
    expect(rows).toHaveLength(0);
  });
});
