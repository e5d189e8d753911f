import { JobQueue, type EnqueueOptions, type LocalQueueCounts, type QueueStateCounts } from '../job-queue.port';
import { QUEUE_NAMES, validateJob, type JobData, type JobName, type QueueName } from '../jobs';
import { QueueUnavailableError } from '../queue.errors';

/**
 * The job queue in memory, for specs: checks each job against the registry as the real queues do
 * (InvalidJobError), keeps what was queued, refuses while `down` (QueueUnavailableError, as Redis
 * away does), and runs a job at once when the spec gave its name a handler, as an instant worker.
 * Every enqueue is kept, a job id given twice too: what a queue then does is the adapters' rule,
 * proven by inline-job-queue.adapter.spec.ts and test/jobs.int-spec.ts.
 */
export class RecordingJobQueue extends JobQueue {
  readonly queued: { name: JobName; data: unknown; options?: EnqueueOptions }[] = [];
  down = false;
  /** With false, handlers wait: the jobs stay queued for the spec to run itself. */
  runAtOnce = true;
  private readonly handlers = new Map<JobName, (data: never) => Promise<void>>();

  /** Runs each `name` job before enqueue returns (while `runAtOnce`). */
  handle<N extends JobName>(name: N, handler: (data: JobData<N>) => Promise<void>): this {
    this.handlers.set(name, handler as (data: never) => Promise<void>);
    return this;
  }

  async enqueue<N extends JobName>(name: N, data: JobData<N>, options?: EnqueueOptions): Promise<void> {
    const parsed = validateJob(name, data, options?.jobId);
    if (this.down) throw new QueueUnavailableError();
    this.queued.push({ name, data: parsed, options });
    const handler = this.handlers.get(name);
    if (this.runAtOnce && handler) await handler(parsed as never);
  }

  /** The queued jobs of one name, their data. */
  dataOf<N extends JobName>(name: N): JobData<N>[] {
    return this.queued.filter((job) => job.name === name).map((job) => job.data as JobData<N>);
  }

  localCounts(): Record<QueueName, LocalQueueCounts> | null {
    return null;
  }

  async stateCounts(): Promise<Record<QueueName, QueueStateCounts>> {
    if (this.down) throw new QueueUnavailableError();
    return Object.fromEntries(QUEUE_NAMES.map((queue) => [queue, { waiting: 0, active: 0, delayed: 0, failed: 0 }])) as Record<QueueName, QueueStateCounts>;
  }
}
