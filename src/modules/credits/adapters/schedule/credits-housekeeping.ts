import { Injectable, Logger } from '@nestjs/common';
import { Interval, Timeout } from '@nestjs/schedule';
import { CreditsService } from '../../application/credits.service';

/**
 * Every minute where scheduled work runs (the worker, or the web process without Redis; see
 * ScheduleModule in AppModule and WorkerModule): expiries into the history, owed trials granted.
 */
@Injectable()
export class CreditsHousekeeping {
  private readonly logger = new Logger('Credits');

  constructor(private readonly credits: CreditsService) {}

  // Two methods: @nestjs/schedule keeps one schedule per method (a second decorator replaces the first).
  @Timeout(2_000)
  async atStart(): Promise<void> {
    await this.run();
  }

  @Interval(60_000)
  async run(): Promise<void> {
    await this.credits.housekeeping().catch((error: unknown) => this.logger.warn({ err: error }, 'Credit housekeeping failed'));
  }
}
