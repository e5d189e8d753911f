import { type DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import type { DestinationStream } from 'pino';
import { AppConfig } from './config/app-config';
import { AccountModule } from './modules/account/account.module';
import { AuthModule } from './modules/auth/auth.module';
import { BillingModule } from './modules/billing/billing.module';
import { ContentModule } from './modules/content/content.module';
import { CreditsModule } from './modules/credits/credits.module';
import { ImageToolModule } from './modules/image-tool/image-tool.module';
import { ErrorLogModule } from './modules/error-log/error-log.module';
import { GuideInsightsModule } from './modules/guide-insights/guide-insights.module';
import { GuideReportsModule } from './modules/guide-reports/guide-reports.module';
import { LevelsModule } from './modules/levels/levels.module';
import { OpsModule } from './modules/ops/ops.module';
import { ProgressModule } from './modules/progress/progress.module';
import { SearchModule } from './modules/search/search.module';
import { APP_ERROR_FILTER } from './platform/errors/app-error.filter';
import { HealthModule } from './platform/health/health.module';
import { MetricsModule } from './platform/metrics/metrics.module';
import { PlatformModule } from './platform/platform.module';
import type { ServerEntrySource } from './ssr/server-entry-source.port';
import { SsrModule } from './ssr/ssr.module';

/** The feature modules (bounded contexts); each imports what it uses. The worker and `npm run migrate` load them too. */
export const FEATURE_MODULES = [AuthModule, ErrorLogModule, LevelsModule, ContentModule, CreditsModule, BillingModule, ImageToolModule, GuideReportsModule, GuideInsightsModule, OpsModule, ProgressModule, SearchModule, AccountModule];

/** The web process: platform, feature modules, and last the SSR catch-all for pages. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, pages: ServerEntrySource, logs?: DestinationStream): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(config, { logs }),
        HealthModule,
        MetricsModule,
        // Recurring work (RecurringWork: outbox relays, credit expiry, stale orders) runs where the jobs run: here
        // without Redis, else in the worker.
        ...(config.redis.url ? [] : [ScheduleModule.forRoot()]),
        ...FEATURE_MODULES,
        SsrModule.forRoot(pages),
      ],
      providers: [APP_ERROR_FILTER],
    };
  }
}
