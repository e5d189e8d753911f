import { Module } from '@nestjs/common';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { AppConfig } from 'src/config/app-config';
import { AuthGuardsModule } from 'src/modules/auth/auth-guards.module';
import { CreditsModule } from 'src/modules/credits/credits.module';
import { YamlPricingCatalog } from './adapters/files/yaml-pricing-catalog.adapter';
import { BillingAdminController, PaymentEventsAdminController } from './adapters/http/billing-admin.controller';
import { BillingController } from './adapters/http/billing.controller';
import { ReceiptsController } from './adapters/http/receipts.controller';
import { StripeWebhookController } from './adapters/http/stripe-webhook.controller';
import { LocalPaymentGateway } from './adapters/local/local-payment-gateway.adapter';
import { BillingPageData } from './adapters/pages/billing.pages';
import { BillingSitemap } from './adapters/pages/billing.sitemap';
import { OrderRefundSchema, OrderSchema, PaymentEventSchema } from './adapters/persistence/billing.entities';
import { PostgresOrderRepository } from './adapters/persistence/postgres-order-repository.adapter';
import { BillingHousekeeping } from './adapters/schedule/billing-housekeeping';
import { StripePaymentGateway } from './adapters/stripe/stripe-payment-gateway.adapter';
import { AdminOrdersService } from './application/admin-orders.service';
import { CheckoutService } from './application/checkout.service';
import { OrderViews } from './application/order-views.service';
import { PaymentEventsService } from './application/payment-events.service';
import { PaymentReversalsService } from './application/payment-reversals.service';
import { ReceiptsService } from './application/receipts.service';
import { RefundService } from './application/refund.service';
import { OrderRepository } from './domain/order-repository.port';
import { PaymentGateway } from './domain/payment-gateway.port';
import { PricingCatalog } from './domain/pricing-catalog.port';
import { PagesModule } from 'src/platform/pages/pages.module';
import { RecurringWorkModule } from 'src/platform/schedule/recurring-work.module';

/**
 * Payments: the packs of content/pricing.yaml, checkout through the PaymentGateway port (Stripe
 * with STRIPE_SECRET_KEY, else the local test checkout), orders, refunds and disputes. Credits are
 * granted and taken back only through the credits module's CreditLedger. Its pages' data and
 * sitemap entries are in adapters/pages; "payments off" is the credits module's rule.
 */
@Module({
  imports: [AuthGuardsModule, CreditsModule, RecurringWorkModule, PagesModule, MikroOrmModule.forFeature([OrderSchema, PaymentEventSchema, OrderRefundSchema])],
  controllers: [BillingController, ReceiptsController, StripeWebhookController, BillingAdminController, PaymentEventsAdminController],
  providers: [
    CheckoutService,
    PaymentEventsService,
    PaymentReversalsService,
    RefundService,
    ReceiptsService,
    AdminOrdersService,
    OrderViews,
    BillingHousekeeping,
    BillingPageData,
    BillingSitemap,
    { provide: OrderRepository, useClass: PostgresOrderRepository },
    { provide: PricingCatalog, useClass: YamlPricingCatalog },
    {
      provide: PaymentGateway,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => (config.payments.stripe ? new StripePaymentGateway(config) : new LocalPaymentGateway()),
    },
  ],
})
export class BillingModule {}
