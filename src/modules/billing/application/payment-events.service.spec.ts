import { Logger } from '@nestjs/common';
import { orderLotRef } from '../domain/order';
import { PENDING_ORDER_TTL_MS } from './checkout.service';
import { billingTestBed, type BillingTestBed, paid, USER } from '../testing/billing-test-bed';

describe('PaymentEventsService', () => {
  let orders: BillingTestBed['orders'];
  let ledger: BillingTestBed['ledger'];
  let checkouts: BillingTestBed['checkouts'];
  let events: BillingTestBed['events'];
  let checkout: BillingTestBed['checkout'];

  beforeEach(() => {
    ({ orders, ledger, checkouts, events, checkout } = billingTestBed());
    for (const level of ['log', 'warn', 'error'] as const) jest.spyOn(Logger.prototype, level).mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('fulfils a paid order once: its lot granted once, a redelivered or repeated payment changes nothing', async () => {
    const order = await checkout();
    expect(await events.applyUpdate('evt_1', paid(order))).toBe('applied');
    expect(await events.applyUpdate('evt_1', paid(order))).toBe('duplicate');
    expect(await events.applyUpdate('evt_2', paid(order))).toBe('ignored');
    expect(await ledger.balance(USER.id)).toBe(100);
    const [lot] = await ledger.lots(USER.id);
    expect(lot).toMatchObject({ source: 'pack', sourceRef: orderLotRef(order.id), description: `Starter pack: 100 credits (${order.number})` });
    expect(await orders.findById(order.id)).toMatchObject({ status: 'paid', gatewayPaymentRef: `pi_${order.id}`, paymentMethod: 'Visa •••• 4242', paidAt: expect.any(Date) });
  });

  it('grants nothing for a payment short of the price or in another currency, or for an unknown session', async () => {
    const order = await checkout();
    expect(await events.applyUpdate('evt_short', paid(order, { amountPaidCents: 298 }))).toBe('ignored');
    expect(await events.applyUpdate('evt_eur', paid(order, { currency: 'eur' }))).toBe('ignored');
    expect(await events.applyUpdate('evt_unknown', paid(order, { sessionId: 'cs_nobody' }))).toBe('ignored');
    expect(await events.applyUpdate('evt_none', null)).toBe('ignored');
    expect(await ledger.balance(USER.id)).toBe(0);
    expect((await orders.findById(order.id))!.status).toBe('pending');
  });

  it('still fulfils an order our housekeeping expired when its money arrives late', async () => {
    const order = await checkout();
    orders.rows[0]!.createdAt = new Date(Date.now() - PENDING_ORDER_TTL_MS - 1000);
    expect(await checkouts.expireStalePending()).toBe(1);
    expect(await events.applyUpdate('evt_late', paid(order))).toBe('applied');
    expect(await ledger.balance(USER.id)).toBe(100);
  });

  it.each(['failed', 'canceled', 'expired'] as const)('moves a pending order to %s, and never a paid one', async (type) => {
    const order = await checkout();
    expect(await events.applyUpdate(`evt_${type}`, { type, sessionId: order.gatewaySessionId! })).toBe('applied');
    expect((await orders.findById(order.id))!.status).toBe(type);
    const other = await checkout();
    await events.applyUpdate('evt_paid', paid(other));
    expect(await events.applyUpdate(`evt_${type}_late`, { type, sessionId: other.gatewaySessionId! })).toBe('ignored');
    expect((await orders.findById(other.id))!.status).toBe('paid');
  });
});
