import { AppError } from 'src/platform/errors/app-error';

/** The job's data (or id) does not match the registry: refused before anything is queued. */
export class InvalidJobError extends AppError {
  readonly code = 'QUEUE.INVALID_JOB';
  readonly kind = 'validation';
}

/** The queue cannot take the job now (Redis unreachable, or the process is shutting down). */
export class QueueUnavailableError extends AppError {
  readonly code = 'QUEUE.UNAVAILABLE';
  readonly kind = 'unavailable';

  constructor(options?: { cause?: unknown }) {
    super('The job queue is not available; try again shortly', ['The service is busy; try again shortly']);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/** Thrown by a processor when another attempt cannot succeed: the job fails at once, without retries. */
export class PermanentJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

/**
 * How a failure is logged: the error's class and codes, never its message, which may quote the
 * job's data (addresses, links with tokens).
 */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  return [error.name, typeof code === 'string' ? code : undefined, typeof responseCode === 'number' ? responseCode : undefined]
    .filter((part) => part !== undefined)
    .join(' ');
}
