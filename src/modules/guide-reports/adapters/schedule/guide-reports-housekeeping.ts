import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { RecurringWork } from 'src/platform/schedule/recurring-work';
import { GuideReportsService } from '../../application/guide-reports.service';

const DAY_MS = 24 * 60 * 60_000;

/**
 * Where the jobs run: every minute, the reports held for the digest are mailed once their quiet
 * spell has passed; daily, and soon after start, reports older than 180 days are deleted. Safe to
 * run twice (two workers: the digest's claim is one at a time).
 */
@Injectable()
export class GuideReportsHousekeeping implements OnModuleInit {
  private readonly logger = new Logger('GuideReports');

  constructor(
    private readonly work: RecurringWork,
    private readonly reports: GuideReportsService,
  ) {}

  onModuleInit(): void {
    this.work.register({ name: 'guide-reports.delete-expired', firstDelayMs: 4_000, everyMs: DAY_MS, run: () => this.deleteExpired() });
    // The digest of the reports held back while a mail about others had gone out lately.
    this.work.register({ name: 'guide-reports.digest', firstDelayMs: 5_000, everyMs: 60_000, run: () => this.mailDigest() });
  }

  private async mailDigest(): Promise<void> {
    const mails = await this.reports.mailDue();
    if (mails) this.logger.log(`Guide reports mailed to ${mails} admin(s)`);
  }

  private async deleteExpired(): Promise<void> {
    const deleted = await this.reports.deleteExpired();
    if (deleted) this.logger.log(`${deleted} guide report(s) older than 180 days deleted`);
  }
}
