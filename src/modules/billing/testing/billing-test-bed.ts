import type { Provider } from '@nestjs/common';
import { loadConfig } from 'src/config/app-config';
import { SessionAuthenticator } from 'src/modules/auth';
import { CreditLedger, PaymentsEnabledGuard } from 'src/modules/credits';
import { InMemorySessionRepository } from 'src/modules/auth/testing/in-memory-session-repository';
import { InMemoryUserRepository } from 'src/modules/auth/testing/in-memory-user-repository';
import { InMemoryCreditLedger } from 'src/modules/credits/testing/in-memory-credit-ledger';
import { AdminOrdersService } from '../application/admin-orders.service';
import { CheckoutService } from '../application/checkout.service';
import { OrderViews } from '../application/order-views.service';
import { PaymentEventsService } from '../application/payment-events.service';
import { PaymentReversalsService } from '../application/payment-reversals.service';
import { ReceiptsService } from '../application/receipts.service';
import { RefundService } from '../application/refund.service';
import type { Order } from '../domain/order';
import { OrderRepository } from '../domain/order-repository.port';
import { PaymentGateway, type PaymentUpdate } from '../domain/payment-gateway.port';
import { PricingCatalog } from '../domain/pricing-catalog.port';
import { FakePaymentGateway } from './fake-payment-gateway';
import { FixedPricingCatalog } from './fixed-pricing-catalog';
import { InMemoryOrderRepository } from './in-memory-order-repository';

export const USER = { id: 'user-1', email: 'buyer@example.com' };

/** The billing services on in-memory ports, as billing.module.ts wires them, with a fresh repository, ledger and gateway. */
export function billingTestBed(kind: 'stripe' | 'local' = 'stripe', env: Record<string, string> = {}) {
  const ledger = new InMemoryCreditLedger();
  const users = new InMemoryUserRepository();
  const orders = new InMemoryOrderRepository({ ledger, emailOf: (id) => users.rows.get(id)?.email ?? null });
  const gateway = new FakePaymentGateway(kind);
  const config = loadConfig({}, { HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true', PUBLIC_URL: 'https://guides.example', ...env });
  const accounts = new SessionAuthenticator(users, new InMemorySessionRepository(), config);
  const views = new OrderViews(ledger, config);
  const events = new PaymentEventsService(orders, gateway, ledger, config, new PaymentReversalsService(orders, ledger));
  const checkouts = new CheckoutService(orders, gateway, new FixedPricingCatalog(), events, views, config);
  const refunds = new RefundService(orders, gateway, events, views, config);
  const admin = new AdminOrdersService(orders, ledger, accounts, views, config);

  /** A checkout of `input` and its gateway session id. */
  async function checkout(input: { pack_id?: string; donation_usd?: number } = { pack_id: 'starter' }) {
    const { order_id } = await checkouts.checkout(USER, input);
    return (await orders.findById(order_id))!;
  }
  return { orders, ledger, gateway, users, checkouts, events, refunds, admin, checkout };
}

export type BillingTestBed = ReturnType<typeof billingTestBed>;

/** The gateway's word that `order` is paid in full. */
export const paid = (order: Order, extra: Partial<Extract<PaymentUpdate, { type: 'paid' }>> = {}): PaymentUpdate => ({
  type: 'paid',
  sessionId: order.gatewaySessionId!,
  amountPaidCents: order.amountCents,
  currency: 'usd',
  paymentRef: `pi_${order.id}`,
  paymentMethod: 'Visa •••• 4242',
  ...extra,
});

/** The providers of BillingModule for controller specs: its real services, these fakes bound to the ports. */
export function billingProviders(fakes: { orders: InMemoryOrderRepository; gateway: FakePaymentGateway; ledger: InMemoryCreditLedger }): Provider[] {
  return [
    CheckoutService,
    PaymentEventsService,
    PaymentReversalsService,
    RefundService,
    AdminOrdersService,
    OrderViews,
    ReceiptsService,
    PaymentsEnabledGuard,
    { provide: OrderRepository, useValue: fakes.orders },
    { provide: PaymentGateway, useValue: fakes.gateway },
    { provide: PricingCatalog, useClass: FixedPricingCatalog },
    { provide: CreditLedger, useValue: fakes.ledger },
  ];
}
