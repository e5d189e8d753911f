import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig } from 'src/config/app-config';
import { PlatformModule } from 'src/platform/platform.module';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { CREDITS_ENTITIES } from 'src/modules/credits/adapters/persistence/credits.entities';
import { PostgresCreditLedger } from 'src/modules/credits/adapters/persistence/postgres-credit-ledger.adapter';
import { CreditsService } from 'src/modules/credits/application/credits.service';
import { CreditLedger } from 'src/modules/credits/domain/credit-ledger.port';
import { InsufficientCreditsError } from 'src/modules/credits/domain/credits.errors';
import { creditLedgerContract } from 'src/modules/credits/testing/credit-ledger.contract';
import { createTestDatabase, type TestDatabase } from './support/services';

/**
 * The credit ledger's rules against a real database: PostgreSQL (CI's server) and the embedded
 * PGlite the site runs on by default (one connection, so concurrency there is serialised).
 */
describe.each(['postgres', 'embedded'] as const)('the credit ledger on %s', (kind) => {
  let database: TestDatabase | undefined;
  let dataDir: string | undefined;
  let app: TestingModule;
  let ledger: CreditLedger;
  let em: EntityManager;

  beforeAll(async () => {
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    let env: Record<string, string>;
    if (kind === 'postgres') {
      database = await createTestDatabase();
      env = { DATABASE_URL: database.url, MIGRATE_ON_START: 'true' };
    } else {
      dataDir = await mkdtemp(join(tmpdir(), 'ledger-'));
      env = { DATA_DIR: dataDir };
    }
    const config = loadConfig({}, { ...env, HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true', TRIAL_CREDITS: '10' });
    app = await Test.createTestingModule({
      imports: [PlatformModule.forRoot(config, { structuredLogs: false }), MikroOrmModule.forFeature(CREDITS_ENTITIES)],
      providers: [{ provide: CreditLedger, useClass: PostgresCreditLedger }, CreditsService],
    }).compile();
    await app.init();
    ledger = app.get(CreditLedger);
    em = app.get(EntityManager);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    jest.restoreAllMocks();
  });

  const sql = <T>(query: string, params: unknown[] = []) => em.execute<T[]>(query, params);

  async function newUser(): Promise<string> {
    const [row] = await sql<{ id: string }>(`insert into users (email, confirmed_at, created_at) values (?, now(), now()) returning id`, [`${randomUUID()}@example.com`]);
    return row!.id;
  }

  /** A lot with an expiry relative to the database clock ('-1 day' is already expired). */
  async function lot(userId: string, credits: number, expiresIn: string, remaining = credits): Promise<string> {
    const ref = `test:${randomUUID()}`;
    await ledger.grant({ userId, source: 'admin', sourceRef: ref, credits, validityDays: 1, description: 'Test lot' });
    await sql(`update credit_lots set expires_at = now() + ?::interval, remaining = ? where source_ref = ?`, [expiresIn, remaining, ref]);
    return ref;
  }

  const remainingOf = async (ref: string) => (await sql<{ remaining: number }>(`select remaining from credit_lots where source_ref = ?`, [ref]))[0]!.remaining;

  /** Every change of a balance is in the history: the events add up to what the lots hold. */
  async function expectHistoryMatchesLots(userId: string): Promise<void> {
    const [row] = await sql<{ events: string; lots: string }>(
      `select (select coalesce(sum(credits), 0) from credit_events where user_id = ?) as events,
              (select coalesce(sum(remaining), 0) from credit_lots where user_id = ?) as lots`,
      [userId, userId],
    );
    expect(Number(row!.events)).toBe(Number(row!.lots));
  }

  // The port's rules case by case, the same cases InMemoryCreditLedger passes (its unit spec).
  creditLedgerContract(() => ({
    ledger,
    newUser,
    expireIn: async (sourceRef, ms) => void (await sql(`update credit_lots set expires_at = now() + make_interval(secs => ?) where source_ref = ?`, [ms / 1000, sourceRef])),
    today: () => new Date().toISOString().slice(0, 10),
  }));

  const hold = (userId: string, key: string = randomUUID(), amount = 1) => ledger.hold({ userId, amount, idempotencyKey: key, description: 'Image conversion' });

  it('accepts exactly 50 of 200 concurrent 1-credit holds against 50 spendable credits, and never spends an expired lot', async () => {
    const userId = await newUser();
    const soon = await lot(userId, 20, '1 hour');
    const later = await lot(userId, 30, '10 days');
    const expired = await lot(userId, 100, '-1 minute');

    const results = await Promise.allSettled(Array.from({ length: 200 }, () => hold(userId)));

    const accepted = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(accepted).toHaveLength(50);
    expect(refused).toHaveLength(150);
    for (const r of refused) expect(r.reason).toBeInstanceOf(InsufficientCreditsError);
    expect(await ledger.balance(userId)).toBe(0);
    expect([await remainingOf(soon), await remainingOf(later), await remainingOf(expired)]).toEqual([0, 0, 100]);
    const [charges] = await sql<{ n: string }>(`select count(*) as n from credit_charges where user_id = ?`, [userId]);
    expect(Number(charges!.n)).toBe(50);
  });

  it('spends the lot that expires soonest first', async () => {
    const userId = await newUser();
    const later = await lot(userId, 5, '30 days');
    const soon = await lot(userId, 2, '2 days');
    await hold(userId, undefined, 3);
    expect([await remainingOf(soon), await remainingOf(later)]).toEqual([0, 4]);
    expect((await ledger.lots(userId)).map((l) => l.remaining)).toEqual([4]);
  });

  it('charges once for any number of replays of one key, even concurrent, and refuses the key for another charge', async () => {
    const userId = await newUser();
    await lot(userId, 10, '1 day');
    const key = `job:${randomUUID()}`;
    const charges = await Promise.all(Array.from({ length: 20 }, () => hold(userId, key, 2)));
    expect(new Set(charges.map((c) => c.id)).size).toBe(1);
    expect(await ledger.balance(userId)).toBe(8);
    await expect(hold(userId, key, 3)).rejects.toMatchObject({ code: 'CREDITS.KEY_CONFLICT' });
    await expect(hold(await newUser(), key, 2)).rejects.toMatchObject({ code: 'CREDITS.KEY_CONFLICT' });
  });

  it('refuses a short balance with 402 details and takes nothing; the offer follows payments, not credits', async () => {
    const userId = await newUser();
    // Trial or admin credits are not a payment: this account still gets the donation offer.
    await lot(userId, 2, '1 day');
    const error = await hold(userId, undefined, 3).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientCreditsError);
    expect((error as InsufficientCreditsError).extra).toEqual({ balance: 2, has_paid: false });
    expect((error as InsufficientCreditsError).message).toBe("You don't have enough credits");
    expect(await ledger.balance(userId)).toBe(2);
    await ledger.grant({ userId, source: 'pack', sourceRef: `order:${randomUUID()}`, credits: 1, validityDays: 1, description: 'Pack' });
    const paid = await hold(userId, undefined, 5).catch((e: unknown) => e);
    expect((paid as InsufficientCreditsError).extra).toEqual({ balance: 3, has_paid: true });
    expect((paid as InsufficientCreditsError).message).toBe("You don't has enough credit!");
  });

  it('gives released credits back to the very lots they came from, once, however many releases race', async () => {
    const userId = await newUser();
    const soon = await lot(userId, 3, '1 day');
    const later = await lot(userId, 10, '5 days');
    const keys = Array.from({ length: 6 }, () => randomUUID());
    for (const key of keys) await hold(userId, key, 2);
    expect([await remainingOf(soon), await remainingOf(later)]).toEqual([0, 1]);

    const released = await Promise.all(keys.flatMap((key) => Array.from({ length: 5 }, () => ledger.release(key, 'Conversion failed'))));

    expect(released.every((c) => c.state === 'released')).toBe(true);
    expect([await remainingOf(soon), await remainingOf(later)]).toEqual([3, 10]);
    const [refunds] = await sql<{ n: string }>(`select count(*) as n from credit_events where user_id = ? and kind = 'refund'`, [userId]);
    expect(Number(refunds!.n)).toBe(6);
    await expectHistoryMatchesLots(userId);
  });

  it('moves a charge from held to captured or released once: a settled charge stays as it is', async () => {
    const userId = await newUser();
    await lot(userId, 5, '1 day');
    const captured = randomUUID();
    await hold(userId, captured);
    expect((await ledger.capture(captured)).state).toBe('captured');
    expect((await ledger.release(captured, 'late failure')).state).toBe('captured');
    expect(await ledger.balance(userId)).toBe(4);

    const released = randomUUID();
    await hold(userId, released);
    expect((await ledger.release(released, 'failed')).state).toBe('released');
    expect((await ledger.capture(released)).state).toBe('released');
    expect(await ledger.balance(userId)).toBe(4);
    // A replayed hold of a released key charges nothing again.
    expect((await hold(userId, released)).state).toBe('released');
    expect(await ledger.balance(userId)).toBe(4);
    await expect(ledger.capture('no-such-key')).rejects.toMatchObject({ code: 'CREDITS.UNKNOWN_CHARGE' });
  });

  it('grants a lot once per source, even when the grants race', async () => {
    const userId = await newUser();
    const ref = `order:${randomUUID()}`;
    const grants = await Promise.all(
      Array.from({ length: 10 }, () => ledger.grant({ userId, source: 'pack', sourceRef: ref, credits: 100, validityDays: 30, description: 'Starter pack' })),
    );
    expect(grants.filter((g) => g.granted)).toHaveLength(1);
    expect(await ledger.balance(userId)).toBe(100);
    const [lotRow] = await sql<{ days: number }>(`select extract(day from expires_at - now())::int as days from credit_lots where source_ref = ?`, [ref]);
    expect(lotRow!.days).toBeGreaterThanOrEqual(29);
  });

  it('takes back only what is unspent of a lot, says how many were already used, and gives back what a lowered target frees', async () => {
    const userId = await newUser();
    const ref = await lot(userId, 10, '1 day');
    const spent = randomUUID();
    await hold(userId, spent, 7);
    await ledger.capture(spent);
    expect(await ledger.clawBack(ref, 5, 'Refund')).toEqual({ target: 5, taken: 3, change: -3 });
    expect(await ledger.clawBack(ref, 5, 'Refund')).toEqual({ target: 5, taken: 3, change: 0 });
    expect(await ledger.clawBack('order:none', 5, 'Refund')).toBeNull();
    expect(await ledger.balance(userId)).toBe(0);
    expect((await ledger.history(userId, 1, 20)).items[0]).toMatchObject({ kind: 'revoke', credits: -3, description: 'Refund: 3 of 5 credits taken back, 2 already used' });
    // The refund failed: all that was taken comes back, once.
    expect(await ledger.clawBack(ref, 0, 'Refund failed')).toEqual({ target: 0, taken: 0, change: 3 });
    expect(await ledger.clawBack(ref, 0, 'Refund failed')).toEqual({ target: 0, taken: 0, change: 0 });
    expect(await ledger.balance(userId)).toBe(3);
    expect((await ledger.history(userId, 1, 20)).items[0]).toMatchObject({ kind: 'restore', credits: 3, description: 'Refund failed' });
    expect(await ledger.clawbacks([ref, 'order:none'])).toEqual(new Map([[ref, { target: 0, taken: 0 }]]));
    await expectHistoryMatchesLots(userId);
  });

  it('takes back the credits that failed jobs release into a refunded lot, and gives them back if the dispute is won', async () => {
    const userId = await newUser();
    const ref = await lot(userId, 10, '1 day');
    const jobs = [randomUUID(), randomUUID(), randomUUID()];
    for (const key of jobs) await hold(userId, key, 2);
    // Refunded in full while three jobs hold 6 of its credits: the 4 unspent are taken at once.
    expect(await ledger.clawBack(ref, 10, 'Refund of ORD-1')).toMatchObject({ taken: 4, change: -4 });
    await ledger.release(jobs[0]!, 'failed');
    await ledger.release(jobs[1]!, 'failed');
    await ledger.capture(jobs[2]!);
    // The released credits went back where the rest of the refunded lot went: nothing to spend.
    expect(await ledger.balance(userId)).toBe(0);
    await expect(hold(userId)).rejects.toBeInstanceOf(InsufficientCreditsError);
    expect(await ledger.clawbacks([ref])).toEqual(new Map([[ref, { target: 10, taken: 8 }]]));
    expect((await ledger.history(userId, 1, 3)).items.map((e) => [e.kind, e.credits, e.description])).toEqual([
      ['revoke', -2, 'Returned credits of a refunded or disputed order'],
      ['refund', 0, 'Image conversion: failed'],
      ['revoke', -2, 'Returned credits of a refunded or disputed order'],
    ]);
    // Back to nothing to take back: all 8 return.
    expect(await ledger.clawBack(ref, 0, 'Dispute won')).toMatchObject({ taken: 0, change: 8 });
    expect(await ledger.balance(userId)).toBe(8);
    await expectHistoryMatchesLots(userId);
  });

  it('records each expiry once in the history, and expires credits released into an expired lot', async () => {
    const userId = await newUser();
    const key = randomUUID();
    const ref = await lot(userId, 4, '1 day');
    await hold(userId, key, 1);
    await sql(`update credit_lots set expires_at = now() - interval '1 second' where source_ref = ?`, [ref]);
    expect(await ledger.balance(userId)).toBe(0);

    const [first, second] = await Promise.all([ledger.expireDue(1000), ledger.expireDue(1000)]);
    expect(first! + second!).toBeGreaterThanOrEqual(1);
    expect(await remainingOf(ref)).toBe(0);
    await ledger.release(key, 'failed');
    expect(await remainingOf(ref)).toBe(0);
    const history = await ledger.history(userId, 1, 20);
    // The spend and its give-back are one line, net 0.
    expect(history.items.map((e) => [e.kind, e.credits])).toEqual([
      ['expire', -1],
      ['refund', 0],
      ['expire', -3],
      ['grant', 4],
    ]);
    expect(history.items[1]!.description).toBe('Image conversion: failed');
    expect(await ledger.expireDue(1000)).toBe(0);
    await expectHistoryMatchesLots(userId);
  });

  it('joins the caller\'s transaction: a hold in a transaction that rolls back charges nothing', async () => {
    const userId = await newUser();
    await lot(userId, 3, '1 day');
    await expect(
      em.transactional(async () => {
        await hold(userId, undefined, 2);
        throw new Error('the job row could not be stored');
      }),
    ).rejects.toThrow('the job row could not be stored');
    expect(await ledger.balance(userId)).toBe(3);
    expect((await ledger.history(userId, 1, 20)).items.map((e) => e.kind)).toEqual(['grant']);
  });

  it('shows a failed job as one line of the history that says the credit came back, and keeps the audit columns', async () => {
    const userId = await newUser();
    const admin = await newUser();
    await ledger.grant({ userId, source: 'admin', sourceRef: `test:${randomUUID()}`, credits: 2, validityDays: 1, description: 'Goodwill', actorId: admin });
    const key = randomUUID();
    await hold(userId, key);
    await ledger.release(key, 'credit returned');
    const history = await ledger.history(userId, 1, 20);
    expect(history.total).toBe(2);
    expect(history.items.map((e) => [e.kind, e.credits, e.description])).toEqual([
      ['refund', 0, 'Image conversion: credit returned'],
      ['grant', 2, 'Goodwill'],
    ]);
    const [grant] = await sql<{ actor_id: string | null }>(`select actor_id from credit_events where user_id = ? and kind = 'grant'`, [userId]);
    expect(grant!.actor_id).toBe(admin);
    await expectHistoryMatchesLots(userId);
  });

  it('grants the trial once per account, and the housekeeping owes it to confirmed accounts without one', async () => {
    const credits = app.get(CreditsService);
    const userId = await newUser();
    expect(await credits.grantTrial(userId)).toBe(true);
    expect(await credits.grantTrial(userId)).toBe(false);
    const view = await credits.view(userId);
    expect(view.balance).toBe(10);
    expect(view.lots[0]).toMatchObject({ source: 'trial', remaining: 10, expiring_soon: false });
    const days = (Date.parse(view.lots[0]!.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);

    const owed = await newUser();
    const [unconfirmed] = await sql<{ id: string }>(`insert into users (email, created_at) values (?, now()) returning id`, [`${randomUUID()}@example.com`]);
    await credits.housekeeping();
    expect(await ledger.balance(owed)).toBe(10);
    expect(await ledger.balance(unconfirmed!.id)).toBe(0);
  });
});
