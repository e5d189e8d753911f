import { Injectable, Logger } from '@nestjs/common';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { AppConfig } from 'src/config/app-config';
import { bullmqPrefix } from 'src/platform/queue/bullmq-job-queue.adapter';
import { FleetScheduler, type FleetTask } from './fleet-scheduler.port';

/** The queue of the recurring tasks' runs (beside the job registry's queues, under the same prefix). */
export const SCHEDULE_QUEUE = 'schedule';

/**
 * One BullMQ job scheduler per task (`upsertJobScheduler(name, { every })`): BullMQ makes one job
 * per period, whichever worker takes it, so two workers run each task once per period, not twice.
 * Its periods are fixed bins of `every` (epoch-aligned), so a restart neither runs a task again
 * nor pushes its next run back.
 */
@Injectable()
export class BullmqFleetScheduler extends FleetScheduler {
  private readonly logger = new Logger('RecurringWork');
  private connection?: Redis;
  private queue?: Queue;
  private worker?: Worker;

  constructor(private readonly config: AppConfig) {
    super();
  }

  async start(tasks: FleetTask[], run: (name: string) => Promise<void>): Promise<void> {
    if (!this.config.redis.url) throw new Error('BullmqFleetScheduler needs REDIS_URL');
    // Like the job workers: wait for Redis rather than fail (no retry limit per command).
    this.connection = new Redis(this.config.redis.url, { maxRetriesPerRequest: null });
    this.connection.on('error', () => undefined);
    const prefix = bullmqPrefix(this.config);
    this.queue = new Queue(SCHEDULE_QUEUE, { connection: this.connection, prefix });
    this.queue.on('error', () => undefined);
    const names = new Set(tasks.map((task) => task.name));
    for (const task of tasks) {
      await this.queue.upsertJobScheduler(task.name, { every: task.everyMs }, { name: task.name, opts: { removeOnComplete: true, removeOnFail: { count: 100 } } });
    }
    // A task this version no longer has would otherwise be queued for ever, its runs failing.
    for (const scheduler of await this.queue.getJobSchedulers(0, -1)) {
      if (names.has(scheduler.key)) continue;
      await this.queue.removeJobScheduler(scheduler.key);
      this.logger.log(`Recurring task ${scheduler.key} is no longer registered: its schedule removed`);
    }
    this.worker = new Worker(
      SCHEDULE_QUEUE,
      async (job) => {
        if (!names.has(job.name)) return;
        this.logger.debug(`Recurring task ${job.name}: the fleet's run ${job.id}`);
        await run(job.name);
      },
      { connection: this.connection, prefix, concurrency: 1 },
    );
    // Redis outages are logged where they are watched (the job workers); this worker reconnects by itself.
    this.worker.on('error', () => undefined);
  }

  async stop(): Promise<void> {
    await this.worker?.close();
    await this.queue?.close();
    this.connection?.disconnect();
  }
}
