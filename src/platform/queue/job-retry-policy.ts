import { JOBS, type JobName, type RetryPolicy } from './jobs';

/**
 * Each job's retry policy, as the registry sets it; `retryDelayMs` (JOB_RETRY_DELAY_MS, unset in
 * production) replaces every job's first delay, so tests wait out retries in a fraction of the time.
 */
export class JobRetryPolicy {
  constructor(private readonly retryDelayMs?: number) {}

  of(name: JobName): RetryPolicy {
    const { retry } = JOBS[name];
    return this.retryDelayMs === undefined ? retry : { ...retry, backoff: { ...retry.backoff, delayMs: this.retryDelayMs } };
  }
}

/** Milliseconds to wait after `attemptsMade` failed attempts (1, 2, ...), as BullMQ computes it. */
export function backoffDelay(policy: RetryPolicy, attemptsMade: number): number {
  const { type, delayMs } = policy.backoff;
  return type === 'fixed' ? delayMs : Math.round(2 ** (attemptsMade - 1) * delayMs);
}
