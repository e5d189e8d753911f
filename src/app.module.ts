import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { AuthModule } from './modules/auth/auth.module';
import { BillingModule } from './modules/billing/billing.module';
import { ContentModule } from './modules/content/content.module';
import { CreditsModule } from './modules/credits/credits.module';
import { ImageToolModule } from './modules/image-tool/image-tool.module';
import { ErrorLogModule } from './modules/error-log/error-log.module';
import { LevelsModule } from './modules/levels/levels.module';
import { DatabaseModule } from './platform/database/database.module';
import { AppErrorFilter } from './platform/errors/app-error.filter';
import { HealthModule } from './platform/health/health.module';
import { LoggingModule } from './platform/logging/logging.module';
import { MailModule } from './platform/mail/mail.module';
import { QueueModule } from './platform/queue/queue.module';
import { RedisModule } from './platform/redis/redis.module';
import type { ServerEntrySource } from './ssr/server-entry.source';
import { SsrModule } from './ssr/ssr.module';

/** The feature modules (bounded contexts). The CLI loads them too, for their entities. */
export const FEATURE_MODULES = [AuthModule, ErrorLogModule, LevelsModule, ContentModule, CreditsModule, BillingModule, ImageToolModule];

/** The web process: platform, feature modules, and last the SSR catch-all for pages. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, pages: ServerEntrySource): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule,
        DatabaseModule,
        RedisModule,
        QueueModule,
        MailModule,
        HealthModule,
        // Recurring work (mail outbox, credit expiry, stale orders) runs where the jobs run: here
        // without Redis, else in the worker.
        ...(config.redis.url ? [] : [ScheduleModule.forRoot()]),
        ...FEATURE_MODULES,
        SsrModule.forRoot(pages),
      ],
      providers: [{ provide: APP_FILTER, useClass: AppErrorFilter }],
    };
  }
}
