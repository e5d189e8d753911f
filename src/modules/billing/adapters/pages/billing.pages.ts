import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { BillingPages, OrderStatus } from 'src/contracts/billing';
import { PaymentsDisabledError } from 'src/modules/credits';
import { PageSections } from 'src/platform/pages/page-sections';
import { AdminOrdersService } from '../../application/admin-orders.service';
import { CheckoutService } from '../../application/checkout.service';
import { OrderNotFoundError } from '../../domain/billing.errors';

/** Null for what the services refuse as absent: payments off (their rule), or no such order. The page shows the 404 of an unknown path. */
const absentAsNull = <T>(read: Promise<T>): Promise<T | null> =>
  read.catch((error: unknown) => (error instanceof PaymentsDisabledError || error instanceof OrderNotFoundError ? null : Promise.reject(error)));

/** Billing's section of the page data: the pricing page's packs and the admins' order pages. */
@Injectable()
export class BillingPageData implements BillingPages, OnModuleInit {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly orders: AdminOrdersService,
    private readonly sections: PageSections,
  ) {}

  onModuleInit(): void {
    this.sections.add('billing', this);
  }

  async pricing() {
    return this.checkout.pricing();
  }

  adminOrders(filter: { email?: string; number?: string; status?: OrderStatus }, page: number) {
    return absentAsNull(this.orders.listAllOrders(filter, page));
  }

  adminOrder(id: string) {
    return absentAsNull(this.orders.adminOrder(id));
  }

  refusedEvents(page: number) {
    return absentAsNull(this.orders.refusedEvents(page));
  }
}
