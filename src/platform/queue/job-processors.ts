import { Injectable } from '@nestjs/common';
import { JOB_NAMES, type JobData, type JobName } from './jobs';

/** What a processor knows of the job it runs (for logs and idempotency; never log the data). */
export interface JobContext {
  id: string;
  name: JobName;
  /** 1 for the first attempt. */
  attempt: number;
  attempts: number;
}

/** Runs one job. Throw to fail the attempt (it is retried), PermanentJobError to fail it for good. */
export type JobHandler<N extends JobName> = (data: JobData<N>, job: JobContext) => Promise<void>;

/**
 * Called once a job has failed for good: its last attempt failed, it failed permanently, or it
 * stalled too often (its worker died each time). Runs where the job ran; must be idempotent.
 */
export type FailedJobHandler<N extends JobName> = (data: JobData<N>, job: JobContext) => Promise<void>;

/** Told after each attempt how it went and how long it took (the metrics listen). */
export type AttemptListener = (name: JobName, outcome: 'completed' | 'failed', seconds: number) => void;

/**
 * Who runs each job. A module registers its processors from onModuleInit:
 *   constructor(processors: JobProcessors, ...) {}
 *   onModuleInit() { this.processors.register('mail.send', (message) => this.mailer.send(message)); }
 * Both the worker and the in-process queue find them here.
 */
@Injectable()
export class JobProcessors {
  private readonly handlers = new Map<JobName, JobHandler<JobName>>();
  private readonly failedHandlers = new Map<JobName, FailedJobHandler<JobName>>();
  private readonly attemptListeners: AttemptListener[] = [];

  register<N extends JobName>(name: N, handler: JobHandler<N>, options: { onFailed?: FailedJobHandler<N> } = {}): void {
    if (this.handlers.has(name)) throw new Error(`A processor for job ${name} is already registered`);
    this.handlers.set(name, handler as unknown as JobHandler<JobName>);
    if (options.onFailed) this.failedHandlers.set(name, options.onFailed as unknown as FailedJobHandler<JobName>);
  }

  /** The handler to call when a job of this name has failed for good, if its module gave one. */
  failedHandler<N extends JobName>(name: N): FailedJobHandler<N> | undefined {
    return this.failedHandlers.get(name) as unknown as FailedJobHandler<N> | undefined;
  }

  handler<N extends JobName>(name: N): JobHandler<N> {
    const handler = this.handlers.get(name);
    if (!handler) throw new Error(`No processor is registered for job ${name}`);
    return handler as unknown as JobHandler<N>;
  }

  /** Runs one attempt of a job through its processor: the one call the worker and the in-process queue make. */
  async run<N extends JobName>(name: N, data: JobData<N>, job: JobContext): Promise<void> {
    const handler = this.handler(name);
    const started = performance.now();
    let outcome: 'completed' | 'failed' = 'failed';
    try {
      await handler(data, job);
      outcome = 'completed';
    } finally {
      const seconds = (performance.now() - started) / 1000;
      for (const listener of this.attemptListeners) {
        try {
          listener(name, outcome, seconds);
        } catch {
          // Observing a job never changes how it went.
        }
      }
    }
  }

  onAttempt(listener: AttemptListener): void {
    this.attemptListeners.push(listener);
  }

  has(name: JobName): boolean {
    return this.handlers.has(name);
  }

  /** Fails the start of the worker when a job of the registry has no processor. */
  assertComplete(): void {
    const missing = JOB_NAMES.filter((name) => !this.handlers.has(name));
    if (missing.length) throw new Error(`No processor is registered for job(s) ${missing.join(', ')}: import the module that registers it`);
  }
}
