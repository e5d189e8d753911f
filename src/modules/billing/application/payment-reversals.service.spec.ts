import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { PaymentEventTooEarlyError } from '../domain/billing.errors';
import type { Order } from '../domain/order';
import { billingTestBed, type BillingTestBed, paid, USER } from '../testing/billing-test-bed';

describe('PaymentReversalsService', () => {
  let orders: BillingTestBed['orders'];
  let ledger: BillingTestBed['ledger'];
  let checkouts: BillingTestBed['checkouts'];
  let events: BillingTestBed['events'];
  let admin: BillingTestBed['admin'];
  let checkout: BillingTestBed['checkout'];

  beforeEach(() => {
    ({ orders, ledger, checkouts, events, admin, checkout } = billingTestBed());
    for (const level of ['log', 'warn', 'error'] as const) jest.spyOn(Logger.prototype, level).mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('takes back the refunded share of the credits, rounded up, from cumulative amounts; an old figure changes nothing', async () => {
    const order = await checkout();
    await events.applyUpdate('evt_paid', paid(order));
    const ref = `pi_${order.id}`;
    // 100 of 299 cents: 33.4% of 100 credits, 34 taken back.
    expect(await events.applyUpdate('evt_r1', { type: 'refunded', paymentRef: ref, refundedCents: 100 })).toBe('applied');
    expect(await orders.findById(order.id)).toMatchObject({ status: 'partially_refunded', refundedCents: 100, creditsRevoked: 34 });
    expect(await ledger.balance(USER.id)).toBe(66);
    expect(await events.applyUpdate('evt_r0', { type: 'refunded', paymentRef: ref, refundedCents: 50 })).toBe('ignored');
    expect(await events.applyUpdate('evt_r2', { type: 'refunded', paymentRef: ref, refundedCents: 299 })).toBe('applied');
    expect(await orders.findById(order.id)).toMatchObject({ status: 'refunded', refundedCents: 299, creditsRevoked: 100 });
    expect(await ledger.balance(USER.id)).toBe(0);
  });

  it('takes back only the unspent credits of a refund or a dispute', async () => {
    const order = await checkout();
    await events.applyUpdate('evt_paid', paid(order));
    await ledger.hold({ userId: USER.id, amount: 80, idempotencyKey: 'spend', description: 'Images' });
    expect(await events.applyUpdate('evt_dispute', { type: 'disputed', paymentRef: `pi_${order.id}` })).toBe('applied');
    expect(await orders.findById(order.id)).toMatchObject({ status: 'disputed', creditsRevoked: 100 });
    expect(ledger.events.filter((e) => e.kind === 'revoke').map((e) => e.credits)).toEqual([-20]);
    expect(await events.applyUpdate('evt_dispute_2', { type: 'disputed', paymentRef: `pi_${order.id}` })).toBe('ignored');
    // A later refund of a disputed order keeps it disputed and takes nothing more.
    expect(await events.applyUpdate('evt_refund', { type: 'refunded', paymentRef: `pi_${order.id}`, refundedCents: 299 })).toBe('applied');
    expect((await orders.findById(order.id))!.status).toBe('disputed');
    expect(ledger.events.filter((e) => e.kind === 'revoke')).toHaveLength(1);
  });

  it('asks the gateway to deliver a refund or dispute again when it comes before the payment', async () => {
    const order = await checkout();
    const refund = { type: 'refunded' as const, paymentRef: `pi_${order.id}`, refundedCents: 299 };
    await expect(events.applyUpdate('evt_early', refund)).rejects.toBeInstanceOf(PaymentEventTooEarlyError);
    // Not recorded: once the payment is in, the redelivery applies.
    await events.applyUpdate('evt_paid', paid(order));
    expect(await events.applyUpdate('evt_early', refund)).toBe('applied');
    expect(await ledger.balance(USER.id)).toBe(0);
  });

  describe('money events after the payment', () => {
    const ref = (order: Order) => `pi_${order.id}`;
    const spend = async (credits: number) => {
      const key = randomUUID();
      await ledger.hold({ userId: USER.id, amount: credits, idempotencyKey: key, description: 'Images' });
      await ledger.capture(key);
    };
    const history = async () => (await ledger.history(USER.id, 1, 50)).items;

    it('takes back the credits failed jobs release into a refunded order: the refund leaves nothing to spend', async () => {
      const order = await checkout();
      await events.applyUpdate('evt_paid', paid(order));
      const jobs = ['job-1', 'job-2', 'job-3'];
      for (const key of jobs) await ledger.hold({ userId: USER.id, amount: 10, idempotencyKey: key, description: 'Image conversion' });
      expect(await events.applyUpdate('evt_refund', { type: 'refunded', paymentRef: ref(order), refundedCents: 299 })).toBe('applied');
      expect(await ledger.balance(USER.id)).toBe(0);
      await ledger.release('job-1', 'failed');
      await ledger.release('job-2', 'failed');
      expect(await ledger.balance(USER.id)).toBe(0);
      expect((await checkouts.listOrders(USER.id, 1)).items[0]).toMatchObject({ status: 'refunded', credits_to_take_back: 100, credits_taken_back: 90 });
    });

    it('records the refund shortfall: how many credits were actually taken back, and how many were already used', async () => {
      const order = await checkout();
      await events.applyUpdate('evt_paid', paid(order));
      await spend(2);
      expect(await events.applyUpdate('evt_refund', { type: 'refunded', paymentRef: ref(order), refundedCents: 299 })).toBe('applied');
      expect((await checkouts.listOrders(USER.id, 1)).items[0]).toMatchObject({ credits_to_take_back: 100, credits_taken_back: 98 });
      expect((await admin.adminOrder(order.id)).credits_revoked).toBe(98);
      expect((await history())[0]).toMatchObject({ kind: 'revoke', credits: -98, description: `Refund of ${order.number}: 98 of 100 credits taken back, 2 already used` });
    });

    it('gives back what a dispute took when it closes with the payment standing, once, whichever event says so', async () => {
      const order = await checkout();
      await events.applyUpdate('evt_paid', paid(order));
      // A third refunded first (34 credits), then the rest disputed (66 more).
      await events.applyUpdate('evt_refund', { type: 'refunded', paymentRef: ref(order), refundedCents: 100 });
      expect(await events.applyUpdate('evt_dispute', { type: 'disputed', paymentRef: ref(order) })).toBe('applied');
      expect(await ledger.balance(USER.id)).toBe(0);

      const won = { type: 'dispute_won' as const, paymentRef: ref(order), disputeId: 'dp_1' };
      expect(await events.applyUpdate('evt_won', won)).toBe('applied');
      expect(await ledger.balance(USER.id)).toBe(66);
      expect(await events.applyUpdate('evt_won', won)).toBe('duplicate');
      expect(await events.applyUpdate('evt_won_again', won)).toBe('ignored');
      expect(await ledger.balance(USER.id)).toBe(66);
      const [view] = (await checkouts.listOrders(USER.id, 1)).items;
      expect(view).toMatchObject({ status: 'partially_refunded', refunded_cents: 100, credits_to_take_back: 34, credits_taken_back: 34, dispute_won_at: expect.any(String) });
      expect((await history())[0]).toMatchObject({ kind: 'restore', credits: 66, description: `Dispute of ${order.number} closed, the payment stands: credits given back` });
      // Won for an order that is not disputed: nothing.
      expect(await events.applyUpdate('evt_won_other', { ...won, disputeId: 'dp_2' })).toBe('ignored');
      expect(await ledger.balance(USER.id)).toBe(66);
    });

    it('gives back the credits of a refund that failed, once per refund, whichever event says so', async () => {
      const order = await checkout();
      await events.applyUpdate('evt_paid', paid(order));
      await events.applyUpdate('evt_r1', { type: 'refunded', paymentRef: ref(order), refundedCents: 100 });
      await events.applyUpdate('evt_r2', { type: 'refunded', paymentRef: ref(order), refundedCents: 299 });
      expect(await ledger.balance(USER.id)).toBe(0);

      // The second refund (199 cents) failed at the bank: its 66 credits come back, the first one's 34 stay taken.
      const failed = { type: 'refund_failed' as const, paymentRef: ref(order), refundId: 're_2', amountCents: 199 };
      expect(await events.applyUpdate('evt_refund_failed', failed)).toBe('applied');
      expect(await events.applyUpdate('evt_refund_updated', failed)).toBe('ignored');
      expect(await events.applyUpdate('evt_refund_failed', failed)).toBe('duplicate');
      expect(await ledger.balance(USER.id)).toBe(66);
      expect((await checkouts.listOrders(USER.id, 1)).items[0]).toMatchObject({ status: 'partially_refunded', refunded_cents: 100, refund_failed_cents: 199, credits_to_take_back: 34, credits_taken_back: 34 });
      expect((await history())[0]).toMatchObject({ kind: 'restore', credits: 66, description: `Refund of ${order.number} failed: credits given back` });

      // The first one fails too: the order is as if never refunded.
      expect(await events.applyUpdate('evt_refund_failed_1', { ...failed, refundId: 're_1', amountCents: 100 })).toBe('applied');
      expect((await checkouts.listOrders(USER.id, 1)).items[0]).toMatchObject({ status: 'paid', refunded_cents: 0, refund_failed_cents: 299, credits_taken_back: 0 });
      expect(await ledger.balance(USER.id)).toBe(100);
    });

    it('acknowledges a signed event the gateway could not read or is of the other mode, keeps it for the admin, and applies nothing', async () => {
      const order = await checkout();
      const event = { id: 'evt_odd', type: 'checkout.session.completed', update: paid(order), problem: 'a live mode event, and this site\'s key is test mode' };
      expect(await events.handleWebhook(Buffer.from(JSON.stringify(event)), 'sig')).toBe('refused');
      expect(await events.handleWebhook(Buffer.from(JSON.stringify(event)), 'sig')).toBe('duplicate');
      expect(await ledger.balance(USER.id)).toBe(0);
      expect((await orders.findById(order.id))!.status).toBe('pending');
      expect(await admin.refusedEvents(1)).toMatchObject({ total: 1, items: [{ id: 'evt_odd', type: 'checkout.session.completed', problem: event.problem }] });
    });
  });
});
