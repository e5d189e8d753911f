import { Logger } from '@nestjs/common';
import { OrderNotFoundError, RefundNotPossibleError } from '../domain/billing.errors';
import { billingTestBed, type BillingTestBed, paid } from '../testing/billing-test-bed';

describe('RefundService', () => {
  let ledger: BillingTestBed['ledger'];
  let gateway: BillingTestBed['gateway'];
  let events: BillingTestBed['events'];
  let refunds: BillingTestBed['refunds'];
  let checkout: BillingTestBed['checkout'];

  beforeEach(() => {
    ({ ledger, gateway, events, refunds, checkout } = billingTestBed());
    for (const level of ['log', 'warn', 'error'] as const) jest.spyOn(Logger.prototype, level).mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it("refunds through the gateway what is left of a paid order, and no more", async () => {
    const order = await checkout();
    let n = 0;
    const as = (amountCents?: number) => ({ amountCents, idempotencyKey: `key-${n++}`, adminId: 'admin-1' });
    await expect(refunds.refund(order.id, as())).rejects.toBeInstanceOf(RefundNotPossibleError);
    await events.applyUpdate('evt_paid', paid(order));
    await expect(refunds.refund(order.id, as(300))).rejects.toThrow('At most 299 cents of this order can still be refunded.');
    expect(await refunds.refund(order.id, as(99))).toMatchObject({ status: 'partially_refunded', refunded_cents: 99 });
    expect(await refunds.refund(order.id, as())).toMatchObject({ status: 'refunded', refunded_cents: 299 });
    expect(gateway.refunds.map((r) => r.amountCents)).toEqual([99, 200]);
    await expect(refunds.refund(order.id, as())).rejects.toBeInstanceOf(RefundNotPossibleError);
    await expect(refunds.refund('no-such-order', as())).rejects.toBeInstanceOf(OrderNotFoundError);
  });

  it('refunds once per idempotency key: a retry answers with the first result, another amount under the key is refused', async () => {
    const order = await checkout();
    await events.applyUpdate('evt_paid', paid(order));
    const request = { amountCents: 100, idempotencyKey: 'ticket-1', adminId: 'admin-1' };
    const first = await refunds.refund(order.id, request);
    expect(await refunds.refund(order.id, request)).toEqual(first);
    expect(gateway.refunds).toHaveLength(1);
    await expect(refunds.refund(order.id, { ...request, amountCents: 50 })).rejects.toMatchObject({ code: 'BILLING.REFUND_KEY_REUSED' });
    expect(ledger.events.filter((e) => e.kind === 'revoke').map((e) => e.actorId)).toEqual(['admin-1']);
  });
});
