import { randomUUID } from 'node:crypto';
import type { CreditLedger } from '../domain/credit-ledger.port';
import { InsufficientCreditsError } from '../domain/credits.errors';

/** What the contract needs of a ledger under test, beyond the port. */
export interface CreditLedgerSubject {
  ledger: CreditLedger;
  /** A new account (a users row for the SQL ledger). */
  newUser(): Promise<string>;
  /** Moves a lot's expiry to `ms` from now (negative: already expired) by the ledger's own clock. */
  expireIn(sourceRef: string, ms: number): Promise<void>;
  /** Today's date (YYYY-MM-DD, UTC) by the ledger's own clock: the usage chart's last day. */
  today(): string;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The CreditLedger port's rules, one case at a time (no concurrency): run against the PostgreSQL
 * ledger by test/credits-ledger.int-spec.ts and against InMemoryCreditLedger by its unit spec, so
 * the fake the unit and controller specs use keeps the real one's rules.
 */
export function creditLedgerContract(subject: () => CreditLedgerSubject): void {
  describe('the CreditLedger contract', () => {
    let ledger: CreditLedger;
    let s: CreditLedgerSubject;
    beforeEach(() => {
      s = subject();
      ledger = s.ledger;
    });

    async function lot(userId: string, credits: number, expiresInMs = DAY): Promise<string> {
      const sourceRef = `test:${randomUUID()}`;
      await ledger.grant({ userId, source: 'admin', sourceRef, credits, validityDays: 1, description: 'Test lot' });
      if (expiresInMs !== DAY) await s.expireIn(sourceRef, expiresInMs);
      return sourceRef;
    }
    const hold = (userId: string, key: string = randomUUID(), amount = 1) => ledger.hold({ userId, amount, idempotencyKey: key, description: 'Image conversion' });
    const remaining = async (userId: string) => (await ledger.lots(userId)).map((l) => [l.sourceRef, l.remaining]);

    it('grants a lot once per source', async () => {
      const userId = await s.newUser();
      const grant = () => ledger.grant({ userId, source: 'pack', sourceRef: `order:${userId}`, credits: 100, validityDays: 30, description: 'Starter pack' });
      expect(await grant()).toEqual({ granted: true });
      expect(await grant()).toEqual({ granted: false });
      expect(await ledger.balance(userId)).toBe(100);
      expect(await ledger.hasPaid(userId)).toBe(true);
    });

    it('spends the lot that expires soonest first, never an expired one', async () => {
      const userId = await s.newUser();
      const later = await lot(userId, 5, 30 * DAY);
      const soon = await lot(userId, 2, 2 * DAY);
      await lot(userId, 100, -HOUR);
      await hold(userId, undefined, 3);
      expect(await remaining(userId)).toEqual([[later, 4]]);
      expect(await ledger.balance(userId)).toBe(4);
      expect(soon).not.toEqual(later);
    });

    it('charges once per key, and refuses the key for another amount or account', async () => {
      const userId = await s.newUser();
      await lot(userId, 10);
      const key = `job:${randomUUID()}`;
      const first = await hold(userId, key, 2);
      expect((await hold(userId, key, 2)).id).toBe(first.id);
      expect(await ledger.balance(userId)).toBe(8);
      await expect(hold(userId, key, 3)).rejects.toMatchObject({ code: 'CREDITS.KEY_CONFLICT' });
      await expect(hold(await s.newUser(), key, 2)).rejects.toMatchObject({ code: 'CREDITS.KEY_CONFLICT' });
    });

    it('refuses a short balance with its details and takes nothing', async () => {
      const userId = await s.newUser();
      await lot(userId, 2);
      const error = await hold(userId, undefined, 3).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InsufficientCreditsError);
      expect((error as InsufficientCreditsError).extra).toEqual({ balance: 2, has_paid: false });
      expect(await ledger.balance(userId)).toBe(2);
      expect((await ledger.history(userId, 1, 20)).items.map((e) => e.kind)).toEqual(['grant']);
    });

    it('moves a charge from held to captured or released once: a settled charge stays as it is', async () => {
      const userId = await s.newUser();
      await lot(userId, 5);
      const captured = randomUUID();
      expect((await hold(userId, captured)).state).toBe('held');
      expect((await ledger.capture(captured)).state).toBe('captured');
      expect((await ledger.release(captured, 'late failure')).state).toBe('captured');
      expect(await ledger.balance(userId)).toBe(4);
      const released = randomUUID();
      await hold(userId, released);
      expect((await ledger.release(released, 'failed')).state).toBe('released');
      expect((await ledger.release(released, 'failed')).state).toBe('released');
      expect((await ledger.capture(released)).state).toBe('released');
      // A replayed hold of a released key charges nothing again.
      expect((await hold(userId, released)).state).toBe('released');
      expect(await ledger.balance(userId)).toBe(4);
      await expect(ledger.capture('no-such-key')).rejects.toMatchObject({ code: 'CREDITS.UNKNOWN_CHARGE' });
      await expect(ledger.release('no-such-key', 'x')).rejects.toMatchObject({ code: 'CREDITS.UNKNOWN_CHARGE' });
    });

    it('gives released credits back to the lots they came from, and shows a failed job as one line, net 0', async () => {
      const userId = await s.newUser();
      const soon = await lot(userId, 3, DAY);
      const later = await lot(userId, 10, 5 * DAY);
      const key = randomUUID();
      await hold(userId, key, 5);
      expect(await remaining(userId)).toEqual([[later, 8]]);
      await ledger.release(key, 'credit returned');
      expect(await remaining(userId)).toEqual([
        [soon, 3],
        [later, 10],
      ]);
      const history = await ledger.history(userId, 1, 20);
      expect(history.total).toBe(3);
      expect(history.items.map((e) => [e.kind, e.credits, e.description])).toEqual([
        ['refund', 0, 'Image conversion: credit returned'],
        ['grant', 10, 'Test lot'],
        ['grant', 3, 'Test lot'],
      ]);
    });

    it('expires credits released into a lot that expired meanwhile, and records each expiry once', async () => {
      const userId = await s.newUser();
      const ref = await lot(userId, 4);
      const key = randomUUID();
      await hold(userId, key, 1);
      await s.expireIn(ref, -1_000);
      expect(await ledger.balance(userId)).toBe(0);
      expect(await ledger.expireDue(1000)).toBeGreaterThanOrEqual(1);
      await ledger.release(key, 'failed');
      expect(await ledger.expireDue(1000)).toBe(0);
      expect((await ledger.history(userId, 1, 20)).items.map((e) => [e.kind, e.credits])).toEqual([
        ['expire', -1],
        ['refund', 0],
        ['expire', -3],
        ['grant', 4],
      ]);
      expect(await ledger.lots(userId)).toEqual([]);
    });

    it('takes back only what is unspent of a lot, and gives back what a lowered target frees', async () => {
      const userId = await s.newUser();
      const ref = await lot(userId, 10);
      const spent = randomUUID();
      await hold(userId, spent, 7);
      await ledger.capture(spent);
      expect(await ledger.clawBack(ref, 5, 'Refund', userId)).toEqual({ target: 5, taken: 3, change: -3 });
      expect(await ledger.clawBack(ref, 5, 'Refund')).toEqual({ target: 5, taken: 3, change: 0 });
      expect(await ledger.clawBack('order:none', 5, 'Refund')).toBeNull();
      expect((await ledger.history(userId, 1, 1)).items[0]).toMatchObject({ kind: 'revoke', credits: -3, description: 'Refund: 3 of 5 credits taken back, 2 already used' });
      expect(await ledger.clawBack(ref, 0, 'Refund failed')).toEqual({ target: 0, taken: 0, change: 3 });
      expect(await ledger.balance(userId)).toBe(3);
      expect(await ledger.clawbacks([ref, 'order:none'])).toEqual(new Map([[ref, { target: 0, taken: 0 }]]));
      const activity = await ledger.lotActivity(ref);
      expect(activity?.lot).toMatchObject({ sourceRef: ref, granted: 10, remaining: 3 });
      expect(activity?.events.map((e) => [e.kind, e.credits, e.actorId ?? null])).toEqual([
        ['grant', 10, null],
        ['revoke', -3, userId],
        ['restore', 3, null],
      ]);
    });

    it('takes the credits a failed job releases into a refunded lot', async () => {
      const userId = await s.newUser();
      const ref = await lot(userId, 10);
      const jobs = [randomUUID(), randomUUID()];
      for (const key of jobs) await hold(userId, key, 2);
      expect(await ledger.clawBack(ref, 10, 'Refund of ORD-1')).toMatchObject({ taken: 6, change: -6 });
      await ledger.release(jobs[0]!, 'failed');
      await ledger.capture(jobs[1]!);
      expect(await ledger.balance(userId)).toBe(0);
      expect(await ledger.clawbacks([ref])).toEqual(new Map([[ref, { target: 10, taken: 8 }]]));
      expect((await ledger.history(userId, 1, 1)).items[0]).toMatchObject({ kind: 'revoke', credits: -2, description: 'Returned credits of a refunded or disputed order' });
    });

    it('counts captured credits for today, lists lots soonest first, and pages the history', async () => {
      const userId = await s.newUser();
      await lot(userId, 30, 20 * DAY);
      await lot(userId, 1, 2 * DAY);
      for (let i = 0; i < 3; i++) {
        const key = randomUUID();
        await hold(userId, key);
        await ledger.capture(key);
      }
      await hold(userId); // held, not captured: not usage yet
      const usage = await ledger.dailyUsage(userId, 30);
      expect(usage).toHaveLength(30);
      expect(usage.at(-1)).toEqual({ date: s.today(), credits: 3 });
      expect(usage.slice(0, -1).every((d) => d.credits === 0)).toBe(true);
      expect((await ledger.lots(userId)).map((l) => [l.remaining, l.expiringSoon])).toEqual([[27, false]]);
      const page2 = await ledger.history(userId, 2, 4);
      expect(page2.total).toBe(6);
      expect(page2.items.map((e) => e.kind)).toEqual(['grant', 'grant']);
    });

    it('decides the trial once per account, and once per address', async () => {
      const [first, second] = [await s.newUser(), await s.newUser()];
      const trial = (userId: string) => ({ userId, source: 'trial' as const, sourceRef: `trial:${userId}`, credits: 10, validityDays: 14, description: 'Free trial' });
      const address = `${randomUUID()}@example.com`;
      expect(await ledger.grantTrial(trial(first), address)).toEqual({ granted: true });
      expect(await ledger.grantTrial(trial(first), address)).toEqual({ granted: false });
      expect(await ledger.grantTrial(trial(second), address)).toEqual({ granted: false });
      expect([await ledger.trialRefused(first), await ledger.trialRefused(second)]).toEqual([false, true]);
      expect([await ledger.balance(first), await ledger.balance(second)]).toEqual([10, 0]);
    });
  });
}
