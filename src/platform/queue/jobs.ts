import { z } from 'zod';
import { InvalidJobError } from './queue.errors';

/** How often a failed job is tried again, and how long to wait: `delayMs`, or `delayMs * 2^(n-1)` before retry n. */
export interface RetryPolicy {
  /** Total attempts, the first one included. */
  attempts: number;
  backoff: { type: 'fixed' | 'exponential'; delayMs: number };
}

interface JobDefinition {
  /** The queue (one BullMQ queue and Worker each), so a slow kind of job never holds up another. */
  queue: string;
  /** The job's data, checked before it is queued and again before it runs. Ids, not secrets. */
  data: z.ZodType;
  retry: RetryPolicy;
}

/**
 * The one registry of background jobs. Adding a job is one entry here and one processor
 * registered with JobProcessors (the worker refuses to start while a job has none); a new
 * `queue` value is a new queue, consumed by the worker with no other change.
 */
export const JOBS = {
  // 8 attempts, 5 s doubling: the last retry comes about 10 minutes after the first failure.
  // The message itself waits in the mail outbox (PostgreSQL): its links carry tokens.
  'mail.send': { queue: 'mail', data: z.object({ outboxId: z.uuid() }).strict(), retry: { attempts: 8, backoff: { type: 'exponential', delayMs: 5_000 } } },
  // An image conversion: the job row (PostgreSQL) holds everything; its credit is held until the
  // job succeeds or fails for good. 3 attempts, 5 s then 10 s apart.
  'image.convert': { queue: 'images', data: z.object({ jobId: z.uuid() }).strict(), retry: { attempts: 3, backoff: { type: 'exponential', delayMs: 5_000 } } },
  // Mails the admins about a player's guide report: the report's id only (its text and the
  // addresses stay in PostgreSQL). Quick, so it shares the mail queue. 5 attempts from 5 s.
  'guide-report.notify': { queue: 'mail', data: z.object({ reportId: z.uuid() }).strict(), retry: { attempts: 5, backoff: { type: 'exponential', delayMs: 5_000 } } },
  // Resolves a request for an emailed link (sign-in link, password reset, confirmation again) off the
  // request path, queued alike for addresses with and without an account (userId null: nothing to
  // do), so the answer takes the same work either way. `resend`: within the address's mail budget.
  'auth.link-request': {
    queue: 'mail',
    data: z.object({ purpose: z.enum(['sign_in_link', 'password_reset', 'account_confirm']), userId: z.uuid().nullable(), resend: z.boolean() }).strict(),
    retry: { attempts: 5, backoff: { type: 'exponential', delayMs: 5_000 } },
  },
} as const satisfies Record<string, JobDefinition>;

export type JobName = keyof typeof JOBS;
export type QueueName = (typeof JOBS)[JobName]['queue'];
export type JobData<N extends JobName> = z.output<(typeof JOBS)[N]['data']>;

export const JOB_NAMES = Object.keys(JOBS) as JobName[];
export const QUEUE_NAMES: QueueName[] = [...new Set(JOB_NAMES.map((name) => JOBS[name].queue))];

/**
 * Jobs a process runs at once per queue, where it differs from WORKER_CONCURRENCY: image
 * conversions use a whole core each, so one at a time per process (run more workers for more cores).
 */
export const QUEUE_CONCURRENCY: Partial<Record<QueueName, number>> = { images: 1 };

export const isJobName = (name: string): name is JobName => Object.hasOwn(JOBS, name);

/** What callers may pass as a job id (BullMQ refuses ':' and ids made only of digits). */
const JOB_ID = /^(?!\d+$)[A-Za-z0-9_.-]{1,128}$/;

/** Checks a job against the registry; returns the parsed data. Throws InvalidJobError. */
export function validateJob<N extends JobName>(name: N, data: unknown, jobId?: string): JobData<N> {
  if (!isJobName(name)) throw new InvalidJobError(`Unknown job ${String(name)}`);
  if (jobId !== undefined && !JOB_ID.test(jobId)) {
    throw new InvalidJobError(`Job id of ${name} must be 1-128 letters, digits, '.', '_' or '-', not only digits`);
  }
  const parsed = JOBS[name].data.safeParse(data);
  if (!parsed.success) {
    // Paths and messages only: the values may be addresses or links.
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(data)'}: ${issue.message}`);
    throw new InvalidJobError(`Invalid data for job ${name}`, problems);
  }
  return parsed.data as JobData<N>;
}
