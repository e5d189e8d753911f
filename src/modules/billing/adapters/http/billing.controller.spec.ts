import { TestAccounts } from 'src/modules/auth/testing/test-accounts';
import { InMemoryCreditLedger } from 'src/modules/credits/testing/in-memory-credit-ledger';
import { errorOf, testConfig, useControllers } from 'src/platform/http/testing/controller-harness';
import { billingProviders } from '../../testing/billing-test-bed';
import { FakePaymentGateway } from '../../testing/fake-payment-gateway';
import { PACKS } from '../../testing/fixed-pricing-catalog';
import { InMemoryOrderRepository } from '../../testing/in-memory-order-repository';
import { BillingController } from './billing.controller';

describe('BillingController (in process)', () => {
  let accounts: TestAccounts;
  let ledger: InMemoryCreditLedger;
  let orders: InMemoryOrderRepository;
  let gateway: FakePaymentGateway;
  let env: Record<string, string>;
  beforeEach(() => {
    accounts = new TestAccounts();
    ledger = new InMemoryCreditLedger();
    orders = new InMemoryOrderRepository({ ledger });
    gateway = new FakePaymentGateway('local');
    env = {};
  });
  const api = useControllers(() => ({
    controllers: [BillingController],
    providers: [...billingProviders({ orders, gateway, ledger }), ...accounts.providers()],
    config: testConfig(env),
  }));

  const checkout = (headers: Record<string, string>, payload: object) => api.inject({ method: 'POST', url: '/api/v1/checkout', headers, payload });

  it('shows the packs, the trial and the donation terms to anyone', async () => {
    const pricing = await api.inject({ method: 'GET', url: '/api/v1/pricing' });
    expect(pricing.statusCode).toBe(200);
    expect(pricing.json()).toMatchObject({ packs: PACKS, test_mode: true, trial: { days: 14 }, donation: { min_usd: expect.any(Number) } });
  });

  it('starts a checkout priced from the catalogue, pays it in the test checkout once, and grants its credits', async () => {
    const { userId, headers } = await accounts.signIn();
    const started = await checkout(headers, { pack_id: 'starter' });
    expect(started.statusCode).toBe(201);
    const { order_id, url } = started.json();
    expect(url).toBe(`https://pay.example/${order_id}`);
    expect(gateway.checkouts[0]).toMatchObject({ customerEmail: 'player@example.com', order: { amountCents: 299, credits: 100 } });
    const pay = () => api.inject({ method: 'POST', url: `/api/v1/orders/${order_id}/test_payment`, headers, payload: { result: 'paid' } });
    expect((await pay()).json()).toMatchObject({ id: order_id, status: 'paid', amount_cents: 299, credits: 100, test: true });
    expect((await pay()).json().status).toBe('paid');
    expect(await ledger.balance(userId)).toBe(100);
    const history = await api.inject({ method: 'GET', url: '/api/v1/orders', headers });
    expect([history.headers['cache-control'], history.json()]).toEqual(['no-store', expect.objectContaining({ total: 1, items: [expect.objectContaining({ id: order_id, status: 'paid' })] })]);
  });

  it('refuses a checkout out of shape with the reason (400), an unknown pack (400), and a fourth open checkout (429)', async () => {
    const { headers } = await accounts.signIn();
    const cases: [object, string[]][] = [
      [{}, ['Send pack_id, or donation_usd in whole dollars']],
      [{ pack_id: 'starter', donation_usd: 5 }, ['Send pack_id, or donation_usd in whole dollars']],
      [{ donation_usd: 2.5 }, ['donation_usd: Enter a whole number of dollars']],
      [{ pack_id: 'starter', price_cents: 1 }, ['Unrecognized key: "price_cents"']],
    ];
    for (const [payload, errors] of cases) {
      const refused = await checkout(headers, payload);
      expect([refused.statusCode, errorOf(refused)]).toEqual([400, { code: 'REQUEST.INVALID', errors }]);
    }
    const unknown = await checkout(headers, { pack_id: 'mega' });
    expect([unknown.statusCode, errorOf(unknown).code]).toEqual([400, 'BILLING.UNKNOWN_PACK']);
    for (let i = 0; i < 3; i++) expect((await checkout(headers, { donation_usd: 5 })).statusCode).toBe(201);
    const fourth = await checkout(headers, { donation_usd: 5 });
    expect([fourth.statusCode, errorOf(fourth).code, Number(fourth.headers['retry-after']) > 0]).toEqual([429, 'BILLING.TOO_MANY_OPEN_CHECKOUTS', true]);
  });

  it("answers another user's order as a missing one, and cancels a pending order once (a canceled one cannot be resumed)", async () => {
    const ann = await accounts.signIn('ann@example.com');
    const { order_id } = (await checkout(ann.headers, { pack_id: 'starter' })).json();
    const bob = await accounts.signIn('bob@example.com');
    for (const [method, url] of [
      ['GET', `/api/v1/orders/${order_id}`],
      ['POST', `/api/v1/orders/${order_id}/cancel`],
      ['POST', `/api/v1/orders/${order_id}/resume`],
    ] as const) {
      const refused = await api.inject({ method, url, headers: bob.headers });
      expect([url, refused.statusCode, errorOf(refused).code]).toEqual([url, 404, 'BILLING.ORDER_NOT_FOUND']);
    }
    expect((await api.inject({ method: 'POST', url: `/api/v1/orders/${order_id}/resume`, headers: ann.headers })).json()).toEqual({ order_id, url: `https://pay.example/${order_id}` });
    const canceled = await api.inject({ method: 'POST', url: `/api/v1/orders/${order_id}/cancel`, headers: ann.headers });
    expect(canceled.json().status).toBe('canceled');
    expect((await api.inject({ method: 'POST', url: `/api/v1/orders/${order_id}/cancel`, headers: ann.headers })).json().status).toBe('canceled');
    const resume = await api.inject({ method: 'POST', url: `/api/v1/orders/${order_id}/resume`, headers: ann.headers });
    expect([resume.statusCode, errorOf(resume).code]).toEqual([409, 'BILLING.NOT_PAYABLE']);
    expect(gateway.canceled).toEqual([order_id]);
  });

  it('wants a session for checkouts and orders', async () => {
    for (const [method, url] of [
      ['POST', '/api/v1/checkout'],
      ['GET', '/api/v1/orders'],
      ['GET', '/api/v1/orders/0b9b7f2e-1c1a-4c1e-9d1e-2f3a4b5c6d7e'],
    ] as const) {
      const refused = await api.inject({ method, url, ...(method === 'POST' ? { payload: { pack_id: 'starter' } } : {}) });
      expect([url, refused.statusCode, errorOf(refused).code]).toEqual([url, 401, 'AUTH.SIGN_IN_REQUIRED']);
    }
  });

  it('closes the test checkout when a real payment service is configured (404)', async () => {
    gateway = new FakePaymentGateway('stripe');
    const { headers } = await accounts.signIn();
    const { order_id } = (await checkout(headers, { pack_id: 'starter' })).json();
    const refused = await api.inject({ method: 'POST', url: `/api/v1/orders/${order_id}/test_payment`, headers, payload: { result: 'paid' } });
    expect([refused.statusCode, errorOf(refused).code]).toEqual([404, 'BILLING.TEST_CHECKOUT_OFF']);
    expect((await api.inject({ method: 'GET', url: '/api/v1/pricing' })).json().test_mode).toBe(false);
  });

  it('answers 404 for pricing, checkout and orders while payments are off', async () => {
    env = { HAS_PAYMENT: 'false' };
    const { headers } = await accounts.signIn();
    for (const [method, url] of [
      ['GET', '/api/v1/pricing'],
      ['POST', '/api/v1/checkout'],
      ['GET', '/api/v1/orders'],
    ] as const) {
      const refused = await api.inject({ method, url, headers, ...(method === 'POST' ? { payload: { pack_id: 'starter' } } : {}) });
      expect([url, refused.statusCode, errorOf(refused).code]).toEqual([url, 404, 'PAYMENTS.DISABLED']);
    }
    expect(gateway.checkouts).toEqual([]);
  });
});
