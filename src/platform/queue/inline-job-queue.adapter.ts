import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { isDatabaseUnavailable } from 'src/platform/database/database.errors';
import { OutageLog } from 'src/platform/logging/outage-log';
import { JobProcessors } from './job-processors';
import { JobQueue, type EnqueueOptions, type LocalQueueCounts } from './job-queue.port';
import { backoffDelay, JobRetryPolicy } from './job-retry-policy';
import { JOBS, QUEUE_CONCURRENCY, QUEUE_NAMES, validateJob, type JobData, type JobName, type QueueName } from './jobs';
import { describeFailure, PermanentJobError, QueueUnavailableError } from './queue.errors';

interface InlineJob {
  id: string;
  name: JobName;
  data: unknown;
  attemptsMade: number;
  /** EnqueueOptions.priority (0: none), then the order they came in: the order a lane's due jobs start in. */
  priority: number;
  sequence: number;
  timer?: NodeJS.Timeout;
  /** waiting: due or about to be; delayed: waiting for a retry; active: running. */
  state: 'waiting' | 'delayed' | 'active';
}

/**
 * The embedded stand-in when REDIS_URL is not set: jobs run in this process, through the same
 * processors, with the same attempts and backoff. Nothing is persisted: a job still waiting
 * when the process stops is abandoned (and logged), running ones are awaited.
 */
@Injectable()
export class InlineJobQueue extends JobQueue implements OnModuleDestroy {
  private readonly logger = new Logger('Jobs');
  private readonly databaseOutage = new OutageLog(this.logger, 'PostgreSQL (jobs)');
  /** Waiting and running jobs, by id (an id is taken again only once its job is done). */
  private readonly jobs = new Map<string, InlineJob>();
  private readonly running = new Set<Promise<void>>();
  /** Per queue with a concurrency limit: how many of its jobs run, and those due that wait for a turn. */
  private readonly lanes = new Map<QueueName, { active: number; due: InlineJob[] }>();
  private closing = false;
  private sequence = 0;
  /** Counts every job in: the order of arrival within a priority. */
  private arrivals = 0;
  /** Jobs finished since start, per queue: succeeded, and failed for good. */
  private readonly finished = new Map<QueueName, { completed: number; failed: number }>();

  constructor(
    private readonly processors: JobProcessors,
    private readonly policy: JobRetryPolicy,
    /** A job that finds the database unreachable runs again after this long, the attempt not counted. */
    private readonly databaseRetryMs = 5_000,
  ) {
    super();
  }

  async enqueue<N extends JobName>(name: N, data: JobData<N>, options: EnqueueOptions = {}): Promise<void> {
    const parsed = validateJob(name, data, options.jobId);
    if (this.closing) throw new QueueUnavailableError();
    this.processors.assertRegistered(name); // no processor: the caller learns it now, not in a log later
    const id = options.jobId ?? `inline-${++this.sequence}`;
    if (this.jobs.has(id)) return;
    const job: InlineJob = { id, name, data: parsed, attemptsMade: 0, priority: options.priority ?? 0, sequence: ++this.arrivals, state: 'waiting' };
    this.jobs.set(id, job);
    this.schedule(job, 0);
  }

  /** Every queue of the registry with its jobs in this process right now (the ops page without Redis). */
  counts(): Record<QueueName, LocalQueueCounts> {
    const counts = Object.fromEntries(
      QUEUE_NAMES.map((queue) => [queue, { waiting: 0, active: 0, delayed: 0, completed: 0, failed: 0, ...this.finished.get(queue) }]),
    ) as Record<QueueName, LocalQueueCounts>;
    for (const job of this.jobs.values()) counts[JOBS[job.name].queue][job.state]++;
    return counts;
  }
  /** This process runs its jobs: they are the counts above. */
  localCounts(): Record<QueueName, LocalQueueCounts> {
    return this.counts();
  }

  stateCounts(): Promise<Record<QueueName, LocalQueueCounts>> {
    return Promise.resolve(this.counts());
  }


  /** Stops taking jobs, drops the waiting ones and waits for those running (before the database closes). */
  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    const queued = new Set([...this.lanes.values()].flatMap((lane) => lane.due.splice(0)));
    const waiting = [...this.jobs.values()].filter((job) => job.timer || queued.has(job));
    for (const job of waiting) {
      clearTimeout(job.timer);
      this.jobs.delete(job.id);
    }
    if (waiting.length) {
      this.logger.warn(`Shutting down: ${waiting.length} waiting job(s) abandoned: ${waiting.map((j) => `${j.name} ${j.id}`).join(', ')}`);
    }
    await Promise.all(this.running);
  }

  private schedule(job: InlineJob, delayMs: number): void {
    job.state = job.attemptsMade > 0 ? 'delayed' : 'waiting';
    // unref: a pending retry never keeps the process alive on its own.
    job.timer = setTimeout(() => {
      job.timer = undefined;
      this.start(job);
    }, delayMs).unref();
  }

  /** Runs a due job now, or when its queue has a free slot (image conversions: one at a time). */
  private start(job: InlineJob): void {
    const queue = JOBS[job.name].queue;
    const limit = QUEUE_CONCURRENCY[queue];
    let lane = this.lanes.get(queue);
    if (limit !== undefined) {
      if (!lane) this.lanes.set(queue, (lane = { active: 0, due: [] }));
      if (lane.active >= limit) {
        job.state = 'waiting';
        // As BullMQ orders them: no priority first, then by priority, each in the order it came.
        const after = lane.due.findIndex((other) => other.priority > job.priority || (other.priority === job.priority && other.sequence > job.sequence));
        return void lane.due.splice(after < 0 ? lane.due.length : after, 0, job);
      }
      lane.active++;
    }
    job.state = 'active';
    const run = this.attempt(job).finally(() => {
      this.running.delete(run);
      if (!lane) return;
      lane.active--;
      const next = lane.due.shift();
      if (next && !this.closing) this.start(next);
    });
    this.running.add(run);
  }

  private tally(job: InlineJob, outcome: 'completed' | 'failed'): void {
    const queue = JOBS[job.name].queue;
    const finished = this.finished.get(queue) ?? { completed: 0, failed: 0 };
    finished[outcome]++;
    this.finished.set(queue, finished);
  }

  private async failedForGood(job: InlineJob, attempt: number, attempts: number): Promise<void> {
    try {
      await this.processors.runFailed(job.name, job.data as never, { id: job.id, name: job.name, attempt, attempts });
    } catch (error) {
      this.logger.error(`The failure handler of job ${job.name} ${job.id} failed (${describeFailure(error)})`);
    }
  }

  private async attempt(job: InlineJob): Promise<void> {
    const policy = this.policy.of(job.name);
    const attempt = job.attemptsMade + 1;
    try {
      await this.processors.run(job.name, job.data as never, { id: job.id, name: job.name, attempt, attempts: policy.attempts });
      this.jobs.delete(job.id);
      this.tally(job, 'completed');
      this.databaseOutage.recovered();
    } catch (error) {
      if (isDatabaseUnavailable(error) && !this.closing) {
        this.databaseOutage.failed(`the database is unreachable; each job waits and runs again every ${this.databaseRetryMs / 1000} s (attempts not counted)`);
        return this.schedule(job, this.databaseRetryMs);
      }
      job.attemptsMade = attempt;
      const failure = `Job ${job.name} ${job.id} failed (attempt ${attempt}/${policy.attempts}, ${describeFailure(error)})`;
      if (error instanceof PermanentJobError || attempt >= policy.attempts) {
        this.jobs.delete(job.id);
        this.tally(job, 'failed');
        this.logger.error(`${failure}: giving up`);
        await this.failedForGood(job, attempt, policy.attempts);
      } else if (this.closing) {
        this.jobs.delete(job.id);
        this.logger.warn(`${failure}: abandoned, the process is shutting down`);
      } else {
        const delayMs = backoffDelay(policy, attempt);
        this.logger.warn(`${failure}: retrying in ${delayMs} ms`);
        this.schedule(job, delayMs);
      }
    }
  }
}
