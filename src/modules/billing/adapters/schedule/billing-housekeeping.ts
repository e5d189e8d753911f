import { Injectable, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { RecurringWork } from 'src/platform/schedule/recurring-work';
import { CheckoutService } from '../../application/checkout.service';

/** Every 10 minutes where the jobs run, with payments on: pending orders older than a day expire. */
@Injectable()
export class BillingHousekeeping implements OnModuleInit {
  constructor(
    private readonly work: RecurringWork,
    private readonly checkouts: CheckoutService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    if (!this.config.payments.enabled) return;
    this.work.register({ name: 'billing.expire-pending', firstDelayMs: 3_000, everyMs: 10 * 60_000, run: () => this.checkouts.expireStalePending() });
  }
}
