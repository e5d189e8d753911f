import { Module } from '@nestjs/common';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { AuthGuardsModule } from 'src/modules/auth/auth-guards.module';
import { GuideReportsModule } from 'src/modules/guide-reports/guide-reports.module';
import { LevelsModule } from 'src/modules/levels/levels.module';
import { PagesModule } from 'src/platform/pages/pages.module';
import { RecurringWorkModule } from 'src/platform/schedule/recurring-work.module';
import { GuideInsightsAdminController } from './adapters/http/guide-insights-admin.controller';
import { GuidePageViews } from './adapters/pages/guide-page-views';
import { GuideInsightsPageData } from './adapters/pages/guide-insights.pages';
import { GuideViewSchema } from './adapters/persistence/guide-view.entity';
import { MikroOrmGuideInsightsReader } from './adapters/persistence/mikro-orm-guide-insights-reader.adapter';
import { MikroOrmGuideViewLog } from './adapters/persistence/mikro-orm-guide-view-log.adapter';
import { GuideViewsFlush } from './adapters/schedule/guide-views-flush';
import { GuideInsightsService } from './application/guide-insights.service';
import { GuideViews } from './application/guide-views.service';
import { GuideInsightsReader } from './domain/guide-insights-reader.port';
import { GuideViewLog } from './domain/guide-view-log.port';

/**
 * What players say and do about the guides, for the content team: guide page views (counted in
 * memory by each web process as the SSR bridge reports views of the route 'level', written to guide_views), and the read model of /admin/guides, which
 * reports on the tables of levels (votes, requests), guide-reports and the progress marks without
 * owning them. Reports are marked handled through guide-reports, which owns them.
 */
@Module({
  imports: [MikroOrmModule.forFeature([GuideViewSchema]), AuthGuardsModule, LevelsModule, GuideReportsModule, RecurringWorkModule, PagesModule],
  controllers: [GuideInsightsAdminController],
  providers: [
    GuideViews,
    GuideViewsFlush,
    GuideInsightsService,
    GuideInsightsPageData,
    GuidePageViews,
    { provide: GuideViewLog, useClass: MikroOrmGuideViewLog },
    { provide: GuideInsightsReader, useClass: MikroOrmGuideInsightsReader },
  ],
})
export class GuideInsightsModule {}
