import { type DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { FEATURE_MODULES } from './app.module';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './platform/database/database.module';
import { LoggingModule } from './platform/logging/logging.module';
import { MailModule } from './platform/mail/mail.module';
import { BullmqJobWorkers } from './platform/queue/bullmq-job-workers';
import { QueueModule } from './platform/queue/queue.module';
import { RedisModule } from './platform/redis/redis.module';

/**
 * The worker process: the platform without HTTP, the feature modules for their job processors
 * (registered in onModuleInit; their controllers stay unused here), and the recurring work
 * (@nestjs/schedule: mail outbox, credit expiry, stale orders).
 */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [ConfigModule.forRoot(config), LoggingModule, DatabaseModule, RedisModule, QueueModule, MailModule, ScheduleModule.forRoot(), ...FEATURE_MODULES],
      providers: [BullmqJobWorkers],
    };
  }
}
