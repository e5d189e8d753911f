import { JOBS, type JobName, type RetryPolicy } from './jobs';

/**
 * Each job's retry policy, as the registry sets it. A provider of its own only so tests can
 * shorten the backoff (`overrideProvider(JobRetryPolicy)`); production never overrides it.
 */
export class JobRetryPolicy {
  of(name: JobName): RetryPolicy {
    return JOBS[name].retry;
  }
}

/** Milliseconds to wait after `attemptsMade` failed attempts (1, 2, ...), as BullMQ computes it. */
export function backoffDelay(policy: RetryPolicy, attemptsMade: number): number {
  const { type, delayMs } = policy.backoff;
  return type === 'fixed' ? delayMs : Math.round(2 ** (attemptsMade - 1) * delayMs);
}
