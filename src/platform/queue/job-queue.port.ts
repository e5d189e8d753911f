import type { JobData, JobName, QueueName } from './jobs';

/** A queue of this process at one moment, named like BullMQ's counts; completed and failed count since start. */
export interface LocalQueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  completed: number;
  failed: number;
}

export interface EnqueueOptions {
  /**
   * Makes the job idempotent: while a job with this id is known to the queue, enqueueing it again
   * does nothing (e.g. the image job's row id). Letters, digits, '.', '_', '-'; not only digits.
   */
  jobId?: string;
  /**
   * With jobId: a job of that id that failed for good (kept in Redis for a week to inspect) runs
   * again with all its attempts, instead of the enqueue doing nothing (the outbox relays of mail and
   * image jobs); a completed one still kept is removed first, and the job queued again.
   */
  retryFailed?: boolean;
  /**
   * Order within the job's queue: 1 runs first; jobs of one priority in the order they came. A
   * queue whose jobs carry priorities should give every job one (BullMQ runs jobs without any first).
   */
  priority?: number;
}

/**
 * Queues a background job from the registry (jobs.ts). The data is checked against the job's
 * schema first (InvalidJobError); QueueUnavailableError when the queue cannot take it now.
 * Adapters: BullmqJobQueue (REDIS_URL set: the worker process runs it) and InlineJobQueue
 * (nothing configured: this process runs it, with the same retries).
 */
export abstract class JobQueue {
  abstract enqueue<N extends JobName>(name: N, data: JobData<N>, options?: EnqueueOptions): Promise<void>;
  /**
   * Every queue's jobs in this process now, when this process runs them (InlineJobQueue: only it
   * knows them); null when another process does (BullMQ: its dashboard reads Redis).
   */
  abstract localCounts(): Record<QueueName, LocalQueueCounts> | null;
  /**
   * Every queue's jobs waiting, active, delayed and failed, wherever they are kept (this process,
   * or Redis): what the metrics report. Rejects while that store cannot be reached.
   */
  abstract stateCounts(): Promise<Record<QueueName, QueueStateCounts>>;
}

/** A queue's jobs by state, as the metrics report them. */
export type QueueStateCounts = Record<'waiting' | 'active' | 'delayed' | 'failed', number>;
