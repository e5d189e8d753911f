import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Queue, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { AppConfig } from 'src/config/app-config';
import { OutageLog } from 'src/platform/logging/outage-log';
import { redisFailureDetail } from 'src/platform/redis/redis-errors';
import { JobQueue, type EnqueueOptions } from './job-queue.port';
import { JobRetryPolicy } from './job-retry-policy';
import { JOBS, QUEUE_NAMES, validateJob, type JobData, type JobName, type QueueName, type RetryPolicy } from './jobs';
import { QueueUnavailableError } from './queue.errors';

/** Jobs of one queue by state, as BullMQ counts them (done jobs leave Redis at once, so no completed count). */
export type BullmqQueueCounts = Record<'waiting' | 'active' | 'delayed' | 'failed', number>;

/** BullMQ's lowest priority. */
const MAX_PRIORITY = 2_097_152;

/** How long an enqueue waits for a connection that is being (re)established. */
const READY_TIMEOUT_MS = 2_000;

/** Every BullMQ key of this site starts with `${REDIS_KEY_PREFIX}bull:<queue>:`. */
export const bullmqPrefix = (config: AppConfig): string => `${config.redis.keyPrefix}bull`;

/** The options a job is stored with; the worker reads attempts and backoff from the job itself. */
export function bullmqJobOptions(policy: RetryPolicy, jobId?: string, priority?: number): JobsOptions {
  return {
    jobId,
    ...(priority ? { priority: Math.min(priority, MAX_PRIORITY) } : {}),
    attempts: policy.attempts,
    backoff: { type: policy.backoff.type, delay: policy.backoff.delayMs },
    // Done jobs leave Redis at once (their data may be personal); failed ones stay a week to inspect.
    removeOnComplete: true,
    removeOnFail: { age: 7 * 24 * 60 * 60, count: 10_000 },
  };
}

/**
 * The producer side of BullMQ (REDIS_URL set): jobs go to Redis and `npm run worker` runs them.
 * Its connection fails fast (no offline queue, one retry, short timeouts) so a Redis outage makes
 * enqueue throw QueueUnavailableError within seconds instead of hanging a request.
 */
@Injectable()
export class BullmqJobQueue extends JobQueue implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  /** Refused enqueues (Redis down, or out of memory: named as such), logged once and then once a minute. */
  private readonly outage = new OutageLog(this.logger, 'Redis (job queue)');
  private readonly client: Redis;
  private readonly prefix: string;
  private readonly queues = new Map<QueueName, Queue>();
  private closed = false;

  constructor(
    config: AppConfig,
    private readonly policy: JobRetryPolicy,
  ) {
    super();
    if (!config.redis.url) throw new Error('BullmqJobQueue needs REDIS_URL');
    this.prefix = bullmqPrefix(config);
    this.client = new Redis(config.redis.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: READY_TIMEOUT_MS,
      commandTimeout: 5_000,
      // Only used to drop a connection that never came up; a live one is closed with QUIT.
      disconnectTimeout: 500,
    });
    // Failures surface where a job is enqueued; the client keeps reconnecting in the background.
    this.client.on('error', () => undefined);
  }

  async onModuleInit(): Promise<void> {
    await this.client.connect().catch((error: Error) => this.logger.warn(`Redis is not reachable yet for the job queue: ${error.message}`));
  }

  async enqueue<N extends JobName>(name: N, data: JobData<N>, options: EnqueueOptions = {}): Promise<void> {
    const parsed = validateJob(name, data, options.jobId);
    await this.ready();
    const queueName = JOBS[name].queue;
    const queue = this.queue(queueName);
    try {
      if (options.jobId && options.retryFailed && (await this.retriedFailed(queue, options.jobId))) return;
      await queue.add(name, parsed, bullmqJobOptions(this.policy.of(name), options.jobId, options.priority));
      this.outage.recovered();
    } catch (error) {
      this.outage.failed(redisFailureDetail(error));
      // A queue whose first connection failed stays broken: the next enqueue builds a fresh one.
      this.queues.delete(queueName);
      void queue.close().catch(() => undefined);
      throw new QueueUnavailableError({ cause: error });
    }
  }

  /** The worker process runs the jobs: their counts are in Redis (counts()), not in this process. */
  localCounts(): null {
    return null;
  }

  stateCounts(): Promise<Record<QueueName, BullmqQueueCounts>> {
    return this.counts();
  }

  /** Every queue of the registry with its counts in Redis; QueueUnavailableError while Redis is down. */
  async counts(): Promise<Record<QueueName, BullmqQueueCounts>> {
    await this.ready();
    const counted = await Promise.all(
      QUEUE_NAMES.map(async (name) => {
        const queue = this.queue(name);
        try {
          const { waiting = 0, active = 0, delayed = 0, failed = 0 } = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
          return [name, { waiting, active, delayed, failed }] as const;
        } catch (error) {
          this.queues.delete(name);
          void queue.close().catch(() => undefined);
          throw new QueueUnavailableError({ cause: error });
        }
      }),
    );
    return Object.fromEntries(counted) as Record<QueueName, BullmqQueueCounts>;
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.queues.values()].map((queue) => queue.close().catch(() => undefined)));
    this.queues.clear();
    if (this.client.status === 'ready') await this.client.quit().catch(() => undefined);
    else this.client.disconnect();
  }

  /**
   * Runs again, with all its attempts, a job of this id that failed for good; false if there is none.
   * A completed one still kept (done jobs are removed at once, so only a leftover) is removed, so
   * the add that follows queues the work again instead of doing nothing.
   */
  private async retriedFailed(queue: Queue, jobId: string): Promise<boolean> {
    const job = await queue.getJob(jobId);
    if (!job) return false;
    const state = await job.getState();
    if (state === 'completed') await job.remove();
    if (state !== 'failed') return false;
    // Its 'giving up' error was logged when it failed; this line says it gets another round.
    this.logger.warn(`Job ${job.name} ${jobId} had given up (${job.failedReason}); queued again with ${job.opts.attempts ?? 1} attempt(s)`);
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    return true;
  }

  /** Resolves when the connection is up; throws at once while Redis is known to be down. */
  private async ready(): Promise<void> {
    const status = this.client.status;
    if (status === 'ready') return;
    if (this.closed || status === 'reconnecting' || status === 'end' || status === 'close') throw new QueueUnavailableError();
    if (status === 'wait') void this.client.connect().catch(() => undefined);
    await new Promise<void>((resolve, reject) => {
      const done = (error?: Error) => {
        clearTimeout(timer);
        this.client.off('ready', onReady).off('error', onError);
        if (error) reject(new QueueUnavailableError({ cause: error }));
        else resolve();
      };
      const onReady = () => done();
      const onError = (error: Error) => done(error);
      const timer = setTimeout(() => done(new Error('timed out waiting for Redis')), READY_TIMEOUT_MS);
      this.client.once('ready', onReady).once('error', onError);
    });
  }

  private queue(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.client, prefix: this.prefix, skipWaitingForReady: true });
      queue.on('error', () => undefined);
      this.queues.set(name, queue);
    }
    return queue;
  }
}
