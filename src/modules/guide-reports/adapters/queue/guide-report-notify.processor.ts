import { Injectable, type OnModuleInit } from '@nestjs/common';
import { JobProcessors } from 'src/platform/queue/job-processors';
import { GuideReportsService } from '../../application/guide-reports.service';

/** Registers the 'guide-report.notify' job: the service mails the admins. */
@Injectable()
export class GuideReportNotifyProcessor implements OnModuleInit {
  constructor(
    private readonly processors: JobProcessors,
    private readonly reports: GuideReportsService,
  ) {}

  onModuleInit(): void {
    this.processors.register('guide-report.notify', async ({ reportId }) => {
      await this.reports.notifyAdmins(reportId);
    });
  }
}
