import { type DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { FEATURE_MODULES } from './app.module';
import type { AppConfig } from './config/app-config';
import { BullmqJobWorkers } from './platform/queue/bullmq-job-workers';
import { QueueModule } from './platform/queue/queue.module';
import { WorkerHeartbeat } from './platform/queue/worker-heartbeat.service';
import { WorkerMetricsModule } from './platform/metrics/metrics.module';
import { PlatformModule } from './platform/platform.module';

/**
 * The worker process: the platform without HTTP, the feature modules for their job processors
 * (registered in onModuleInit; their controllers stay unused here), and the recurring work they
 * register with RecurringWork (outbox relays, credit expiry, stale orders), scheduled by @nestjs/schedule.
 */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [PlatformModule.forRoot(config), QueueModule, ScheduleModule.forRoot(), ...FEATURE_MODULES, WorkerMetricsModule],
      // The heartbeat tells the web process a worker is alive (/readyz, and a warning when none is).
      providers: [BullmqJobWorkers, WorkerHeartbeat],
    };
  }
}
