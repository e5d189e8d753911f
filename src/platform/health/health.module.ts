import { Module } from '@nestjs/common';
import { WorkerHeartbeatTiming, WorkerWatch } from 'src/platform/queue/worker-heartbeat.service';
import { RedisModule } from 'src/platform/redis/redis.module';
import { HealthController } from './health.controller';
import { Readiness } from './readiness.service';

/** /healthz and /readyz; Readiness also tells the start-up log whether the site is ready. */
@Module({
  imports: [RedisModule],
  controllers: [HealthController],
  providers: [Readiness, WorkerWatch, { provide: WorkerHeartbeatTiming, useValue: new WorkerHeartbeatTiming() }],
  exports: [Readiness],
})
export class HealthModule {}
