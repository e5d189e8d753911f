import { Injectable, Logger } from '@nestjs/common';
import { Interval, Timeout } from '@nestjs/schedule';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import { GuideReportsService } from '../../application/guide-reports.service';

const DAY_MS = 24 * 60 * 60_000;

/**
 * Daily, and soon after start, where scheduled work runs (the worker, or the web process without
 * Redis): reports older than 180 days are deleted. Safe to run twice (two workers).
 */
@Injectable()
export class GuideReportsHousekeeping {
  private readonly logger = new Logger('GuideReports');

  constructor(
    private readonly reports: GuideReportsService,
    private readonly orm: MikroORM,
  ) {}

  // Two methods: @nestjs/schedule keeps one schedule per method (a second decorator replaces the first).
  @Timeout(4_000)
  async atStart(): Promise<void> {
    await this.run();
  }

  @Interval(DAY_MS)
  async run(): Promise<void> {
    try {
      // A MikroORM context of its own, as for a job: no request is running.
      const deleted = await RequestContext.create(this.orm.em, () => this.reports.deleteExpired());
      if (deleted) this.logger.log(`${deleted} guide report(s) older than 180 days deleted`);
    } catch (error) {
      this.logger.warn({ err: error }, 'Guide report housekeeping failed');
    }
  }
}
