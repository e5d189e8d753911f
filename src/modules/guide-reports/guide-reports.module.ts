import { Module } from '@nestjs/common';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { AuthGuardsModule } from 'src/modules/auth/auth-guards.module';
import { LevelsModule } from 'src/modules/levels/levels.module';
import { MailModule } from 'src/platform/mail/mail.module';
import { PagesModule } from 'src/platform/pages/pages.module';
import { QueueModule } from 'src/platform/queue/queue.module';
import { GuideReportsAdminController } from './adapters/http/guide-reports-admin.controller';
import { GuideReportsController } from './adapters/http/guide-reports.controller';
import { GuideReportsPageData } from './adapters/pages/guide-reports.pages';
import { GuideReportSchema } from './adapters/persistence/guide-report.entity';
import { MikroOrmGuideReportRepository } from './adapters/persistence/mikro-orm-guide-report-repository.adapter';
import { GuideReportNotifyProcessor } from './adapters/queue/guide-report-notify.processor';
import { GuideReportsHousekeeping } from './adapters/schedule/guide-reports-housekeeping';
import { GuideReportsService } from './application/guide-reports.service';
import { GuideReportRepository } from './domain/guide-report-repository.port';
import { RecurringWorkModule } from 'src/platform/schedule/recurring-work.module';

/**
 * Guide problem reports ("Something wrong with this guide?"): stored in PostgreSQL, mailed to the
 * admins by the 'guide-report.notify' job, listed for them (open until an admin marks one handled,
 * /admin/guides and the admin API), deleted after 180 days. Levels says which guides exist.
 */
@Module({
  imports: [MikroOrmModule.forFeature([GuideReportSchema]), LevelsModule, QueueModule, MailModule, RecurringWorkModule, AuthGuardsModule, PagesModule],
  controllers: [GuideReportsController, GuideReportsAdminController],
  providers: [
    GuideReportsService,
    GuideReportsPageData,
    GuideReportNotifyProcessor,
    GuideReportsHousekeeping,
    { provide: GuideReportRepository, useClass: MikroOrmGuideReportRepository },
  ],
  exports: [GuideReportsService],
})
export class GuideReportsModule {}
