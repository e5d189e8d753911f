import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig } from 'src/config/app-config';
import { CREDITS_ENTITIES } from 'src/modules/credits/adapters/persistence/credits.entities';
import { PostgresCreditLedger } from 'src/modules/credits/adapters/persistence/postgres-credit-ledger.adapter';
import { PostgresReminderStore } from 'src/modules/credits/adapters/persistence/postgres-reminder-store.adapter';
import { CreditRemindersService } from 'src/modules/credits/application/credit-reminders.service';
import { CreditLedger } from 'src/modules/credits/domain/credit-ledger.port';
import { ReminderStore } from 'src/modules/credits/domain/reminder-store.port';
import type { MailMessage } from 'src/platform/mail/mail-message';
import { MailOutbox } from 'src/platform/mail/mail-outbox.port';
import { PlatformModule } from 'src/platform/platform.module';
import { createTestDatabase, type TestDatabase } from './support/services';

/**
 * The reminder mails against PostgreSQL, as two workers would run them: two processes' services
 * (each its own connection pool) run at once over the same rows, and each reminder is mailed once.
 */
describe('credit reminders on PostgreSQL', () => {
  let database: TestDatabase;
  const workers: { app: TestingModule; reminders: CreditRemindersService; sent: MailMessage[] }[] = [];
  let ledger: CreditLedger;
  let em: EntityManager;

  beforeAll(async () => {
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    database = await createTestDatabase();
    const config = loadConfig({}, { DATABASE_URL: database.url, HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true', AUTH_SECRET: 'a'.repeat(43), PUBLIC_URL: 'https://guides.example' });
    for (let i = 0; i < 2; i++) {
      const sent: MailMessage[] = [];
      const app = await Test.createTestingModule({
        imports: [PlatformModule.forRoot(config, { structuredLogs: false }), MikroOrmModule.forFeature(CREDITS_ENTITIES)],
        providers: [
          { provide: CreditLedger, useClass: PostgresCreditLedger },
          { provide: ReminderStore, useClass: PostgresReminderStore },
          { provide: MailOutbox, useValue: { send: (message: MailMessage) => Promise.resolve(void sent.push(message)) } },
          CreditRemindersService,
        ],
      }).compile();
      await app.init();
      workers.push({ app, reminders: app.get(CreditRemindersService), sent });
    }
    ledger = workers[0]!.app.get(CreditLedger);
    em = workers[0]!.app.get(EntityManager);
  });

  afterAll(async () => {
    for (const worker of workers) await worker.app.close();
    await database?.drop();
    jest.restoreAllMocks();
  });

  const sql = <T>(query: string, params: unknown[] = []) => em.execute<T[]>(query, params);
  const mailsTo = (email: string) => workers.flatMap((w) => w.sent).filter((m) => m.to === email);
  /** Both workers run at once, three times over (a retried run, the next period). */
  const runBoth = async () => {
    for (let i = 0; i < 3; i++) await Promise.all(workers.map((w) => w.reminders.run()));
  };

  async function newUser(): Promise<{ id: string; email: string }> {
    const email = `${randomUUID()}@example.com`;
    const [row] = await sql<{ id: string }>(`insert into users (email, confirmed_at, created_at) values (?, now(), now()) returning id`, [email]);
    return { id: row!.id, email };
  }
  const grant = (userId: string, credits: number, days = 30) =>
    ledger.grant({ userId, source: 'admin', sourceRef: `test:${randomUUID()}`, credits, validityDays: days, description: `${credits} test credits` });
  const spend = async (userId: string, amount: number) => {
    const key = randomUUID();
    await ledger.hold({ userId, amount, idempotencyKey: key, description: 'Image conversion' });
    await ledger.capture(key);
  };

  it('mails a low balance once per fall below the threshold, again only after the balance rose above it', async () => {
    const user = await newUser();
    await grant(user.id, 5);
    await spend(user.id, 1);
    await runBoth();
    expect(mailsTo(user.email)).toHaveLength(0);
    await spend(user.id, 2);
    await runBoth();
    expect(mailsTo(user.email).map((m) => m.subject)).toEqual(['You have 2 credits left on Mystery Doors Guide']);
    await spend(user.id, 1);
    await runBoth();
    expect(mailsTo(user.email)).toHaveLength(1);
    // A top-up lifts it above the threshold: the next fall below is news again.
    await grant(user.id, 10);
    await spend(user.id, 10);
    await runBoth();
    // Either worker may have sent either one: each once.
    expect(mailsTo(user.email).map((m) => m.subject).sort()).toEqual(['You have 1 credit left on Mystery Doors Guide', 'You have 2 credits left on Mystery Doors Guide']);
  });

  it('never mails a balance that is low without a spend (a trial of 2 credits, unused)', async () => {
    const user = await newUser();
    await grant(user.id, 2);
    await runBoth();
    expect(mailsTo(user.email)).toHaveLength(0);
  });

  it('mails once per lot that expires within 7 days with credits left, with a one-click unsubscribe', async () => {
    const user = await newUser();
    await grant(user.id, 50, 5);
    await grant(user.id, 20, 6);
    await grant(user.id, 30, 60);
    await runBoth();
    const mails = mailsTo(user.email);
    expect(mails.map((m) => m.subject).sort()).toEqual([expect.stringMatching(/^20 credits expire on /), expect.stringMatching(/^50 credits expire on /)]);
    expect(mails[0]!.listUnsubscribe).toMatch(/^https:\/\/guides\.example\/api\/v1\/reminders\/unsubscribe\?token=/);
    expect(mails[0]!.text).toContain('https://guides.example/account/unsubscribe#token=');
  });

  it('sends nothing once the account switched the kind off', async () => {
    const user = await newUser();
    await workers[0]!.reminders.setPreferences(user.id, { expiry: false });
    await grant(user.id, 50, 5);
    await runBoth();
    expect(mailsTo(user.email)).toHaveLength(0);
  });

  it("answers a mail's unsubscribe link after its account was deleted, writing nothing", async () => {
    const user = await newUser();
    await grant(user.id, 50, 5);
    await runBoth();
    const link = mailsTo(user.email)[0]!.listUnsubscribe!;
    await em.getConnection().execute('delete from users where id = ?', [user.id]);
    const token = new URL(link).searchParams.get('token')!;
    await expect(workers[1]!.reminders.unsubscribe(token)).resolves.toEqual({ kind: 'expiry' });
    expect(await em.getConnection().execute('select 1 from mail_preferences where user_id = ?', [user.id])).toEqual([]);
  });

  it('lists the statement with lots, reasons and the balance after each change', async () => {
    const user = await newUser();
    await grant(user.id, 5);
    await spend(user.id, 2);
    const statement = await workers[0]!.reminders.statement(user.id, 'Asia/Tokyo');
    expect(statement.rows.map((r) => [r.kind, r.lot, r.credits, r.balance_after])).toEqual([
      ['grant', '5 test credits', 5, 5],
      ['spend', '5 test credits', -2, 3],
    ]);
    expect(statement.totals).toEqual({ granted: 5, spent: 2, taken_back: 0, expired: 0, balance: 3 });
  });
});
