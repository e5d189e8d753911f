import { Injectable, type OnModuleInit } from '@nestjs/common';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import { JobProcessors } from 'src/platform/queue/job-processors';
import { GuideReportsService } from '../../application/guide-reports.service';

/**
 * Registers the 'guide-report.notify' job: the service mails the admins. Each run gets a MikroORM
 * context of its own: a worker has no request, and the levels module reads through the context's
 * EntityManager (the global one is refused).
 */
@Injectable()
export class GuideReportNotifyProcessor implements OnModuleInit {
  constructor(
    private readonly processors: JobProcessors,
    private readonly reports: GuideReportsService,
    private readonly orm: MikroORM,
  ) {}

  onModuleInit(): void {
    this.processors.register('guide-report.notify', ({ reportId }) =>
      RequestContext.create(this.orm.em, async () => {
        await this.reports.notifyAdmins(reportId);
      }),
    );
  }
}
