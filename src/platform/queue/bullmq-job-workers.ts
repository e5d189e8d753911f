import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { AppConfig } from 'src/config/app-config';
import { isDatabaseUnavailable } from 'src/platform/database/database.errors';
import { OutageLog } from 'src/platform/logging/outage-log';
import { redisFailureDetail } from 'src/platform/redis/redis-errors';
import { bullmqPrefix } from './bullmq-job-queue.adapter';
import { JobProcessors } from './job-processors';
import { isJobName, QUEUE_CONCURRENCY, QUEUE_NAMES, validateJob, type QueueName } from './jobs';
import { describeFailure, PermanentJobError } from './queue.errors';

/**
 * The consumer side of BullMQ, in the worker process: one Worker per queue of the registry runs
 * its jobs through the registered processors. Attempts and backoff travel with each job, so a
 * job waiting for its retry survives a worker restart; one whose worker died mid-run is picked
 * up again when its lock expires (stalled).
 */
@Injectable()
export class BullmqJobWorkers implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Worker');
  private readonly workers: Worker[] = [];
  private connection?: Redis;
  // An outage is logged once, then at most once a minute: every worker's every retry failed loudly before.
  private readonly redisOutage = new OutageLog(this.logger, 'Redis (job workers)');
  private readonly databaseOutage = new OutageLog(this.logger, 'PostgreSQL (jobs)');

  constructor(
    private readonly config: AppConfig,
    private readonly processors: JobProcessors,
  ) {}

  /** After every module's onModuleInit, so all processors are registered. */
  onApplicationBootstrap(): void {
    this.processors.assertComplete();
    if (!this.config.redis.url) throw new Error('The worker needs REDIS_URL');
    // Workers must wait for Redis, not fail: no retry limit per command. BullMQ duplicates this
    // client for each Worker's own connections; until Redis answers they keep reconnecting.
    this.connection = new Redis(this.config.redis.url, { maxRetriesPerRequest: null });
    this.connection.on('error', () => undefined);
    this.connection.on('ready', () => this.redisOutage.recovered());
    for (const queue of QUEUE_NAMES) {
      const worker = new Worker(queue, (job, token) => this.process(job, token), {
        connection: this.connection,
        prefix: bullmqPrefix(this.config),
        concurrency: QUEUE_CONCURRENCY[queue] ?? this.config.queue.concurrency,
        ...this.lockOf(queue),
      });
      worker.on('failed', (job, error) => {
        this.logFailure(job, error);
        if (job && this.failedForGood(job, error)) void this.runFailedHandler(job);
      });
      worker.on('stalled', (id) => this.logger.warn(`Job ${id} of queue ${queue} stalled (its worker stopped): it runs again`));
      worker.on('error', (error) => this.redisOutage.failed(redisFailureDetail(error)));
      // A job done means Redis takes writes again (an out-of-memory refusal ends without a reconnect).
      worker.on('completed', () => this.redisOutage.recovered());
      this.workers.push(worker);
    }
    const concurrency = QUEUE_NAMES.map((queue) => `${queue} ${QUEUE_CONCURRENCY[queue] ?? this.config.queue.concurrency}`).join(', ');
    this.logger.log(`Running queue(s) with concurrency ${concurrency}`);
  }

  /**
   * How soon a job whose worker died is noticed and run again (BullMQ's lock, renewed while the job
   * runs, and its stalled-job check), where it differs from BullMQ's 30 s: a paying user waits for
   * an image (IMAGE_JOB_LOCK_MS).
   */
  private lockOf(queue: QueueName): { lockDuration?: number; stalledInterval?: number } {
    if (queue !== 'images') return {};
    const ms = this.config.images.jobLockMs;
    return { lockDuration: ms, stalledInterval: ms };
  }

  /** Stops fetching, waits for the running jobs, then disconnects (before the database closes). */
  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.close()));
    this.workers.length = 0;
    this.connection?.disconnect();
  }

  private async process(job: Job, token?: string): Promise<void> {
    const name = job.name;
    // Another version's job, or data that no longer parses, would fail every attempt alike.
    if (!isJobName(name)) throw new UnrecoverableError(`Unknown job ${name}`);
    const data = (() => {
      try {
        return validateJob(name, job.data);
      } catch {
        throw new UnrecoverableError(`Invalid data for job ${name}`);
      }
    })();
    const context = { id: job.id ?? '', name, attempt: job.attemptsMade + 1, attempts: job.opts.attempts ?? 1 };
    try {
      await this.processors.run(name, data, context);
      this.databaseOutage.recovered();
    } catch (error) {
      if (error instanceof PermanentJobError) throw new UnrecoverableError(`${error.name}: ${describeFailure(error.cause)}`);
      // An outage is nobody's attempt: counting it would use up the attempts (and fail the job for
      // good, its failure handler failing too) while the database is down. The job waits instead.
      if (isDatabaseUnavailable(error) && token) {
        const ms = this.config.queue.databaseRetryMs;
        this.databaseOutage.failed(`the database is unreachable; each job waits and runs again every ${ms / 1000} s (attempts not counted)`);
        await job.moveToDelayed(Date.now() + ms, token);
        throw new DelayedError();
      }
      throw error;
    }
  }

  private failedForGood(job: Job, error: Error): boolean {
    return error instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1) || /stalled more than/i.test(error.message);
  }

  /** The module's clean-up for a job that failed for good (an image job gives its credit back). */
  private async runFailedHandler(job: Job): Promise<void> {
    const name = job.name;
    if (!isJobName(name)) return;
    try {
      await this.processors.runFailed(name, validateJob(name, job.data), { id: job.id ?? '', name, attempt: job.attemptsMade, attempts: job.opts.attempts ?? 1 });
    } catch (error) {
      this.logger.error(`The failure handler of job ${name} ${job.id} failed (${describeFailure(error)}); the module's sweeper catches up`);
    }
  }

  /** Name, id, attempt and error codes only: the data and the error message may hold addresses or tokens. */
  private logFailure(job: Job | undefined, error: Error): void {
    if (!job) return void this.logger.error(`A job failed (${describeFailure(error)})`);
    const attempts = job.opts.attempts ?? 1;
    const retried = !(error instanceof UnrecoverableError) && job.attemptsMade < attempts;
    const line = `Job ${job.name} ${job.id} failed (attempt ${job.attemptsMade}/${attempts}, ${describeFailure(error)})`;
    if (retried) this.logger.warn(`${line}: retrying`);
    else this.logger.error(`${line}: giving up`);
  }
}
