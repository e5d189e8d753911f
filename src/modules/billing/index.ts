/** Billing's public face: orders, checkout and refunds as services, its ports, errors and types. No Nest wiring. */
export { AdminOrdersService } from './application/admin-orders.service';
export { CheckoutService } from './application/checkout.service';
export { OrderViews } from './application/order-views.service';
export { PaymentEventsService } from './application/payment-events.service';
export { RefundService } from './application/refund.service';
export * from './domain/billing.errors';
export { OrderRepository } from './domain/order-repository.port';
export { PaymentGateway } from './domain/payment-gateway.port';
export { PricingCatalog } from './domain/pricing-catalog.port';
export type { Order } from './domain/order';
