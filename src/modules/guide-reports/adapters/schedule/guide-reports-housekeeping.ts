import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { RecurringWork } from 'src/platform/schedule/recurring-work';
import { GuideReportsService } from '../../application/guide-reports.service';

const DAY_MS = 24 * 60 * 60_000;

/** Daily, and soon after start, where the jobs run: reports older than 180 days are deleted. Safe to run twice (two workers). */
@Injectable()
export class GuideReportsHousekeeping implements OnModuleInit {
  private readonly logger = new Logger('GuideReports');

  constructor(
    private readonly work: RecurringWork,
    private readonly reports: GuideReportsService,
  ) {}

  onModuleInit(): void {
    this.work.register({ name: 'guide-reports.delete-expired', firstDelayMs: 4_000, everyMs: DAY_MS, run: () => this.deleteExpired() });
  }

  private async deleteExpired(): Promise<void> {
    const deleted = await this.reports.deleteExpired();
    if (deleted) this.logger.log(`${deleted} guide report(s) older than 180 days deleted`);
  }
}
