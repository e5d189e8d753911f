import { Injectable, Logger } from '@nestjs/common';
import { Interval, Timeout } from '@nestjs/schedule';
import { AppConfig } from 'src/config/app-config';
import { BillingService } from '../../application/billing.service';

/** Every 10 minutes where scheduled work runs: pending orders older than a day expire. */
@Injectable()
export class BillingHousekeeping {
  private readonly logger = new Logger('Billing');

  constructor(
    private readonly billing: BillingService,
    private readonly config: AppConfig,
  ) {}

  // Two methods: @nestjs/schedule keeps one schedule per method (a second decorator replaces the first).
  @Timeout(3_000)
  async atStart(): Promise<void> {
    await this.run();
  }

  @Interval(10 * 60_000)
  async run(): Promise<void> {
    if (!this.config.payments.enabled) return;
    await this.billing.expireStalePending().catch((error: unknown) => this.logger.warn({ err: error }, 'Order housekeeping failed'));
  }
}
