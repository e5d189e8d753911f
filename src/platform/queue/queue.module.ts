import { Module } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { BullmqJobQueue } from './bullmq-job-queue.adapter';
import { InlineJobQueue } from './inline-job-queue.adapter';
import { JobProcessors } from './job-processors';
import { JobQueue } from './job-queue.port';
import { JobRetryPolicy } from './job-retry-policy';
import { RedisModule } from 'src/platform/redis/redis.module';
import { LiveWorkers } from './worker-heartbeat.service';

/**
 * Background jobs: JobQueue to enqueue, JobProcessors to register who runs each job. With
 * REDIS_URL the queue is BullMQ and the worker process (src/worker.ts) runs the jobs; without,
 * this process runs them (InlineJobQueue), so `npm start` stays one command.
 */
@Module({
  imports: [RedisModule],
  providers: [
    LiveWorkers,
    JobProcessors,
    { provide: JobRetryPolicy, inject: [AppConfig], useFactory: (config: AppConfig) => new JobRetryPolicy(config.queue.retryDelayMs) },
    {
      provide: JobQueue,
      inject: [AppConfig, JobProcessors, JobRetryPolicy],
      useFactory: (config: AppConfig, processors: JobProcessors, policy: JobRetryPolicy) =>
        config.redis.url ? new BullmqJobQueue(config, policy) : new InlineJobQueue(processors, policy, config.queue.databaseRetryMs),
    },
  ],
  exports: [JobQueue, JobProcessors, JobRetryPolicy, LiveWorkers],
})
export class QueueModule {}
