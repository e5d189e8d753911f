import { Logger } from '@nestjs/common';
import { loadConfig } from 'src/config/app-config';
import { InMemoryCreditLedger } from '../testing/in-memory-credit-ledger';
import { CreditsService, TRIAL_REF_PREFIX } from './credits.service';

const DAY_MS = 86_400_000;

/** The credits rules against an in-memory ledger: what a user sees, the trial, grants and the housekeeping. */
describe('CreditsService', () => {
  let ledger: InMemoryCreditLedger;
  const service = (env: Record<string, string> = {}) =>
    new CreditsService(ledger, loadConfig({}, { HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TRIAL_CREDITS: '10', ...env }));

  beforeEach(() => {
    ledger = new InMemoryCreditLedger();
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('grants the trial once per account: TRIAL_CREDITS for 14 days, under the trial reference', async () => {
    const credits = service();
    expect(await credits.grantTrial('u1')).toBe(true);
    expect(await credits.grantTrial('u1')).toBe(false);
    const [lot] = await ledger.lots('u1');
    expect(lot).toMatchObject({ source: 'trial', sourceRef: `${TRIAL_REF_PREFIX}u1`, granted: 10, remaining: 10, description: 'Free trial: 10 credits for 14 days' });
    expect(lot!.expiresAt.getTime() - ledger.now.getTime()).toBe(14 * DAY_MS);
  });

  it('grants the trial once per normalised address: a +tag or Gmail dots make no second trial, and the view says so', async () => {
    const credits = service();
    ledger.emailsById.set('u1', 'Ann.Lee@gmail.com');
    ledger.emailsById.set('u2', 'annlee+again@googlemail.com');
    ledger.emailsById.set('u3', 'ann.lee@example.com');
    expect(await credits.grantTrial('u1')).toBe(true);
    expect(await credits.grantTrial('u2')).toBe(false);
    expect(await credits.grantTrial('u3')).toBe(true);
    expect(await credits.view('u2')).toMatchObject({ balance: 0, trial_refused: true });
    expect(await credits.view('u1')).toMatchObject({ balance: 10, trial_refused: false });
  });

  it('grants no trial while payments are off or TRIAL_CREDITS is 0', async () => {
    expect(await service({ HAS_PAYMENT: 'false' }).grantTrial('u1')).toBe(false);
    expect(await service({ HAS_LOGIN: 'false' }).grantTrial('u1')).toBe(false);
    expect(await service({ TRIAL_CREDITS: '0' }).grantTrial('u1')).toBe(false);
    expect(ledger.lotRows).toHaveLength(0);
  });

  it("grants an admin's credits once per reference, with the reason in the history", async () => {
    const credits = service();
    const grant = { userId: 'u1', credits: 25, validityDays: 30, reason: 'Sorry for the outage', reference: 'req-1', adminId: 'admin-1' };
    expect(await credits.grantByAdmin(grant)).toBe(true);
    expect(await credits.grantByAdmin(grant)).toBe(false);
    expect(await ledger.balance('u1')).toBe(25);
    const history = await credits.history('u1', 1);
    expect(history.items).toEqual([expect.objectContaining({ kind: 'grant', credits: 25, description: 'Sorry for the outage' })]);
    // The audit trail: who granted it.
    expect(ledger.events.map((e) => e.actorId)).toEqual(['admin-1']);
  });

  it('shows the balance as the sum of the unexpired lots, soonest to expire first, flagged when expiring soon', async () => {
    const credits = service();
    await ledger.grant({ userId: 'u1', source: 'pack', sourceRef: 'order:a', credits: 100, validityDays: 365, description: 'Pack' });
    await ledger.grant({ userId: 'u1', source: 'admin', sourceRef: 'admin:b', credits: 5, validityDays: 3, description: 'Soon gone' });
    await ledger.grant({ userId: 'u1', source: 'admin', sourceRef: 'admin:c', credits: 7, validityDays: 1, description: 'Gone' });
    ledger.now = new Date(ledger.now.getTime() + 2 * DAY_MS);
    const view = await credits.view('u1');
    expect(view.balance).toBe(105);
    // A pack was paid for: the low-credit offer is the pack one.
    expect(view.has_paid).toBe(true);
    expect(view.lots.map((lot) => [lot.source, lot.remaining, lot.expiring_soon])).toEqual([
      ['admin', 5, true],
      ['pack', 100, false],
    ]);
    expect(view.daily_usage).toHaveLength(30);
    expect((await service().view('nobody')).has_paid).toBe(false);
  });

  it('pages the history twenty events a page, newest first', async () => {
    const credits = service();
    for (let i = 0; i < 45; i++) await ledger.grant({ userId: 'u1', source: 'admin', sourceRef: `admin:${i}`, credits: 1, validityDays: 30, description: `Grant ${i}` });
    const first = await credits.history('u1', 1);
    expect(first).toMatchObject({ page: 1, pages: 3, total: 45 });
    expect(first.items).toHaveLength(20);
    expect(first.items[0]!.description).toBe('Grant 44');
    expect((await credits.history('u1', 3)).items.map((e) => e.description)).toEqual(['Grant 4', 'Grant 3', 'Grant 2', 'Grant 1', 'Grant 0']);
    expect(await credits.history('nobody', 1)).toEqual({ items: [], page: 1, pages: 1, total: 0 });
  });

  it('housekeeping records every due expiry (in batches) and grants owed trials to confirmed accounts only', async () => {
    const credits = service();
    for (let i = 0; i < 3; i++) await ledger.grant({ userId: `old${i}`, source: 'admin', sourceRef: `admin:old${i}`, credits: 2, validityDays: 1, description: 'Old' });
    ledger.confirmedUsers.add('confirmed');
    ledger.confirmedUsers.add('has-trial');
    await credits.grantTrial('has-trial');
    ledger.now = new Date(ledger.now.getTime() + 2 * DAY_MS);
    const expireDue = jest.spyOn(ledger, 'expireDue');

    expect(await credits.housekeeping()).toEqual({ expired: 3, trials: 1 });
    // Until a batch comes back empty.
    expect(expireDue.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(ledger.events.filter((e) => e.kind === 'expire').map((e) => e.credits)).toEqual([-2, -2, -2]);
    expect(await ledger.balance('confirmed')).toBe(10);
    // Run again: nothing left to do.
    expect(await credits.housekeeping()).toEqual({ expired: 0, trials: 0 });
  });

  it('housekeeping owes no trial while payments are off', async () => {
    ledger.confirmedUsers.add('confirmed');
    expect(await service({ HAS_PAYMENT: 'false' }).housekeeping()).toEqual({ expired: 0, trials: 0 });
    expect(ledger.lotRows).toHaveLength(0);
  });
});
