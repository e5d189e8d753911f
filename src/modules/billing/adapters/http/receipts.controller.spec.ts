import { TestAccounts } from 'src/modules/auth/testing/test-accounts';
import { InMemoryCreditLedger } from 'src/modules/credits/testing/in-memory-credit-ledger';
import { ADMIN_EMAIL, errorOf, testConfig, useControllers } from 'src/platform/http/testing/controller-harness';
import { orderLotRef } from '../../domain/order';
import { billingProviders } from '../../testing/billing-test-bed';
import { FakePaymentGateway } from '../../testing/fake-payment-gateway';
import { InMemoryOrderRepository } from '../../testing/in-memory-order-repository';
import { BillingController } from './billing.controller';
import { ReceiptsController } from './receipts.controller';

describe('ReceiptsController (in process)', () => {
  let accounts: TestAccounts;
  let ledger: InMemoryCreditLedger;
  let orders: InMemoryOrderRepository;
  beforeEach(() => {
    accounts = new TestAccounts();
    ledger = new InMemoryCreditLedger();
    orders = new InMemoryOrderRepository({ ledger });
  });
  const api = useControllers(() => ({
    controllers: [BillingController, ReceiptsController],
    providers: [...billingProviders({ orders, gateway: new FakePaymentGateway('local'), ledger }), ...accounts.providers()],
    config: testConfig({ SELLER_NAME: 'Doors Guide Ltd', SELLER_ADDRESS: '1 Puzzle Lane; Escape City' }),
  }));

  /** A paid order of `input` for the user of `headers`, through the test checkout. */
  async function paid(headers: Record<string, string>, input: object = { pack_id: 'starter' }): Promise<string> {
    const { order_id } = (await api.inject({ method: 'POST', url: '/api/v1/checkout', headers, payload: input })).json<{ order_id: string }>();
    await api.inject({ method: 'POST', url: `/api/v1/orders/${order_id}/test_payment`, headers, payload: { result: 'paid' } });
    return order_id;
  }

  it('shows a receipt to its buyer and an admin, with the seller from the settings; a stranger gets 404, nobody signed in 401', async () => {
    const buyer = await accounts.signIn('ann@example.com');
    const id = await paid(buyer.headers);
    const receipt = await api.inject({ method: 'GET', url: `/api/v1/orders/${id}/receipt`, headers: buyer.headers });
    expect(receipt.statusCode).toBe(200);
    expect(receipt.headers['cache-control']).toBe('no-store');
    expect(receipt.json()).toMatchObject({ seller: { name: 'Doors Guide Ltd', address: ['1 Puzzle Lane', 'Escape City'] }, order: { id, test: true }, refunds: [] });
    const admin = await accounts.signIn(ADMIN_EMAIL);
    expect((await api.inject({ method: 'GET', url: `/api/v1/orders/${id}/receipt`, headers: admin.headers })).statusCode).toBe(200);
    const stranger = await accounts.signIn('bob@example.com');
    const refused = await api.inject({ method: 'GET', url: `/api/v1/orders/${id}/receipt`, headers: stranger.headers });
    expect([refused.statusCode, errorOf(refused).code]).toEqual([404, 'BILLING.ORDER_NOT_FOUND']);
    expect((await api.inject({ method: 'GET', url: `/api/v1/orders/${id}/receipt` })).statusCode).toBe(401);
  });

  it('has no receipt for an order never paid', async () => {
    const { headers } = await accounts.signIn();
    const { order_id } = (await api.inject({ method: 'POST', url: '/api/v1/checkout', headers, payload: { pack_id: 'starter' } })).json<{ order_id: string }>();
    expect((await api.inject({ method: 'GET', url: `/api/v1/orders/${order_id}/receipt`, headers })).statusCode).toBe(404);
  });

  it('refunds a fresh pack to its buyer once, and says why not for a used one and a donation', async () => {
    const { headers, userId } = await accounts.signIn();
    const fresh = await paid(headers);
    const refund = () => api.inject({ method: 'POST', url: `/api/v1/orders/${fresh}/refund`, headers });
    expect((await refund()).json()).toMatchObject({ status: 'refunded', refunded_cents: 299 });
    expect((await refund()).json()).toMatchObject({ status: 'refunded', refunded_cents: 299 });
    expect(await ledger.balance(userId)).toBe(0);

    const used = await paid(headers);
    await ledger.hold({ userId, amount: 10, idempotencyKey: 'spend-10', description: 'Ten images' });
    const tooMuch = await api.inject({ method: 'POST', url: `/api/v1/orders/${used}/refund`, headers });
    expect([tooMuch.statusCode, errorOf(tooMuch)]).toEqual([409, { code: 'BILLING.REFUND_NOT_POSSIBLE', errors: ['10 of its 100 credits are used: 10% or more.'] }]);
    expect((await ledger.lotActivity(orderLotRef(used)))?.lot.remaining).toBe(90);

    const donation = await paid(headers, { donation_usd: 2 });
    const gift = await api.inject({ method: 'POST', url: `/api/v1/orders/${donation}/refund`, headers });
    expect(errorOf(gift).errors).toEqual(['Donations are not refundable from this page.']);
  });

  it('exports the orders as CSV or JSON, and refuses a time zone it does not know', async () => {
    const { headers } = await accounts.signIn();
    await paid(headers);
    const csv = await api.inject({ method: 'GET', url: '/api/v1/exports/orders?tz=Europe/Paris', headers });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body.split('\r\n')[0]).toBe('\uFEFFOrder,Date (Europe/Paris),Description,Status,Amount (USD),Refunded (USD),Credits,Payment method');
    const json = await api.inject({ method: 'GET', url: '/api/v1/exports/orders?format=json', headers });
    expect(json.json()).toMatchObject({ time_zone: 'UTC', totals: { orders: 1, paid_usd: '2.99', net_usd: '2.99' } });
    const bad = await api.inject({ method: 'GET', url: '/api/v1/exports/orders?tz=Nowhere/Atlantis', headers });
    expect([bad.statusCode, errorOf(bad).errors]).toEqual([400, ['tz: tz must be an IANA time zone such as Europe/Berlin']]);
  });
});
