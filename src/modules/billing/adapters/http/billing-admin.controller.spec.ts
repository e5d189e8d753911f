import { TestAccounts } from 'src/modules/auth/testing/test-accounts';
import { InMemoryCreditLedger } from 'src/modules/credits/testing/in-memory-credit-ledger';
import { ADMIN_EMAIL, errorOf, testConfig, useControllers } from 'src/platform/http/testing/controller-harness';
import { CheckoutService } from '../../application/checkout.service';
import { PaymentEventsService } from '../../application/payment-events.service';
import { billingProviders, paid } from '../../testing/billing-test-bed';
import { FakePaymentGateway } from '../../testing/fake-payment-gateway';
import { InMemoryOrderRepository } from '../../testing/in-memory-order-repository';
import { BillingAdminController, PaymentEventsAdminController } from './billing-admin.controller';

describe('BillingAdminController and PaymentEventsAdminController (in process)', () => {
  let accounts: TestAccounts;
  let ledger: InMemoryCreditLedger;
  let orders: InMemoryOrderRepository;
  let gateway: FakePaymentGateway;
  let env: Record<string, string>;
  beforeEach(() => {
    accounts = new TestAccounts();
    ledger = new InMemoryCreditLedger();
    orders = new InMemoryOrderRepository({ ledger, emailOf: (id) => accounts.users.rows.get(id)?.email ?? null });
    gateway = new FakePaymentGateway('stripe');
    env = {};
  });
  const api = useControllers(() => ({
    controllers: [BillingAdminController, PaymentEventsAdminController],
    providers: [...billingProviders({ orders, gateway, ledger }), ...accounts.providers()],
    config: testConfig(env),
  }));

  /** A paid order of a starter pack (100 credits, 299 cents) bought by `email`. */
  async function paidOrder(email: string) {
    const { userId } = await accounts.signIn(email);
    const { order_id } = await (await api.get(CheckoutService)).checkout({ id: userId, email }, { pack_id: 'starter' });
    const order = (await orders.findById(order_id))!;
    await (await api.get(PaymentEventsService)).applyUpdate(`evt_${order.id}`, paid(order));
    return { userId, order: (await orders.findById(order_id))! };
  }
  const refund = (id: string, headers: Record<string, string>, payload?: object) => api.inject({ method: 'POST', url: `/api/v1/admin/orders/${id}/refund`, headers, ...(payload ? { payload } : {}) });

  it("lists every order for an admin with the buyer's address, searchable by part of the address, number and status", async () => {
    const ann = await paidOrder('ann@example.com');
    await paidOrder('bob@example.com');
    const { headers } = await accounts.signIn(ADMIN_EMAIL);
    const list = async (query = '') => (await api.inject({ method: 'GET', url: `/api/v1/admin/orders${query}`, headers })).json();
    expect((await list()).items.map((o: { email: string }) => o.email)).toEqual(['bob@example.com', 'ann@example.com']);
    expect((await list('?email=ANN@')).items).toEqual([expect.objectContaining({ id: ann.order.id, user_id: ann.userId, status: 'paid' })]);
    expect((await list(`?number=${ann.order.number.slice(-4).toLowerCase()}`)).items.map((o: { id: string }) => o.id)).toEqual([ann.order.id]);
    expect((await list('?status=refunded')).total).toBe(0);
    const bad = await api.inject({ method: 'GET', url: '/api/v1/admin/orders?status=lost', headers });
    expect([bad.statusCode, errorOf(bad).code]).toEqual([400, 'REQUEST.INVALID']);
  });

  it("refunds an order once per Idempotency-Key, takes back its unspent credits, and shows it in the order's trail", async () => {
    const { userId, order } = await paidOrder('ann@example.com');
    const admin = await accounts.signIn(ADMIN_EMAIL);
    const headers = { ...admin.headers, 'idempotency-key': 'refund-0001' };
    const first = await refund(order.id, headers, { amount_cents: 299 });
    expect([first.statusCode, first.json()]).toEqual([200, expect.objectContaining({ status: 'refunded', refunded_cents: 299 })]);
    expect((await refund(order.id, headers, { amount_cents: 299 })).json().refunded_cents).toBe(299);
    expect(gateway.refunds).toHaveLength(1);
    expect(await ledger.balance(userId)).toBe(0);
    const detail = (await api.inject({ method: 'GET', url: `/api/v1/admin/orders/${order.id}`, headers: admin.headers })).json();
    expect(detail).toMatchObject({ order: { email: 'ann@example.com' }, refundable_cents: 0, refunds: [{ amount_cents: 299, admin: ADMIN_EMAIL }] });
    expect(detail.credit_events.map((e: { kind: string; admin: string | null }) => [e.kind, e.admin])).toEqual([
      ['grant', null],
      ['revoke', ADMIN_EMAIL],
    ]);
  });

  it('refuses a refund without a key (400), beyond what is left (409), of no order (404), and from a player (403)', async () => {
    const { order } = await paidOrder('ann@example.com');
    const admin = await accounts.signIn(ADMIN_EMAIL);
    const noKey = await refund(order.id, admin.headers);
    expect([noKey.statusCode, errorOf(noKey).errors]).toEqual([400, ['Send an Idempotency-Key header (8-100 letters, digits, "_", ".", ":" or "-"), one per operation']]);
    const tooMuch = await refund(order.id, { ...admin.headers, 'idempotency-key': 'refund-0002' }, { amount_cents: 300 });
    expect([tooMuch.statusCode, errorOf(tooMuch)]).toEqual([409, { code: 'BILLING.REFUND_NOT_POSSIBLE', errors: ['At most 299 cents of this order can still be refunded.'] }]);
    const missing = await refund('0b9b7f2e-1c1a-4c1e-9d1e-2f3a4b5c6d7e', { ...admin.headers, 'idempotency-key': 'refund-0003' });
    expect([missing.statusCode, errorOf(missing).code]).toEqual([404, 'BILLING.ORDER_NOT_FOUND']);
    const player = await accounts.signIn('ann@example.com');
    const forbidden = await refund(order.id, { ...player.headers, 'idempotency-key': 'refund-0004' });
    expect([forbidden.statusCode, errorOf(forbidden).code]).toEqual([403, 'AUTH.ADMIN_REQUIRED']);
    expect(gateway.refunds).toEqual([]);
  });

  it('lists the signed webhook events refused, newest first, for an admin', async () => {
    await (await api.get(PaymentEventsService)).handleWebhook(Buffer.from(JSON.stringify({ id: 'evt_live', type: 'checkout.session.completed', update: null, problem: 'a live mode event' })), 'sig');
    const { headers } = await accounts.signIn(ADMIN_EMAIL);
    const refused = await api.inject({ method: 'GET', url: '/api/v1/admin/payment-events/refused', headers });
    expect(refused.json()).toMatchObject({ total: 1, items: [{ id: 'evt_live', type: 'checkout.session.completed', problem: 'a live mode event' }] });
    expect((await api.inject({ method: 'GET', url: '/api/v1/admin/payment-events/refused' })).statusCode).toBe(401);
  });

  it('answers 404 on the admin billing routes while payments are off', async () => {
    env = { HAS_PAYMENT: 'false' };
    const { headers } = await accounts.signIn(ADMIN_EMAIL);
    for (const url of ['/api/v1/admin/orders', '/api/v1/admin/payment-events/refused']) {
      const refused = await api.inject({ method: 'GET', url, headers });
      expect([url, refused.statusCode, errorOf(refused).code]).toEqual([url, 404, 'PAYMENTS.DISABLED']);
    }
  });
});
