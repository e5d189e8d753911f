import { Injectable } from '@nestjs/common';
import { MikroORM, RequestContext } from '@mikro-orm/core';
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
 * Both the worker and the in-process queue run them through `run` and `runFailed`, which give each
 * call a MikroORM context of its own, as RecurringWork does for its tasks: a processor opens none.
 */
@Injectable()
export class JobProcessors {
  private readonly handlers = new Map<JobName, JobHandler<JobName>>();
  private readonly failedHandlers = new Map<JobName, FailedJobHandler<JobName>>();
  private readonly attemptListeners: AttemptListener[] = [];

  constructor(private readonly orm: MikroORM) {}

  register<N extends JobName>(name: N, handler: JobHandler<N>, options: { onFailed?: FailedJobHandler<N> } = {}): void {
    if (this.handlers.has(name)) throw new Error(`A processor for job ${name} is already registered`);
    this.handlers.set(name, handler as unknown as JobHandler<JobName>);
    if (options.onFailed) this.failedHandlers.set(name, options.onFailed as unknown as FailedJobHandler<JobName>);
  }

  /** Runs the module's clean-up for a job that failed for good (if it gave one), in a context of its own. */
  async runFailed<N extends JobName>(name: N, data: JobData<N>, job: JobContext): Promise<void> {
    const handler = this.failedHandlers.get(name);
    if (handler) await this.inContext(() => handler(data, job));
  }

  /** Throws unless a processor for this job is registered: a caller learns it when it queues the job. */
  assertRegistered(name: JobName): void {
    this.handler(name);
  }

  /**
   * Runs one attempt of a job through its processor: the one call the worker and the in-process
   * queue make. Each attempt has a fresh identity map (a worker has no request; an in-process job
   * must not share the context of the request that queued it).
   */
  async run<N extends JobName>(name: N, data: JobData<N>, job: JobContext): Promise<void> {
    const handler = this.handler(name);
    const started = performance.now();
    let outcome: 'completed' | 'failed' = 'failed';
    try {
      await this.inContext(() => handler(data, job));
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

  /** Fails the start of the worker when a job of the registry has no processor. */
  assertComplete(): void {
    const missing = JOB_NAMES.filter((name) => !this.handlers.has(name));
    if (missing.length) throw new Error(`No processor is registered for job(s) ${missing.join(', ')}: import the module that registers it`);
  }

  private handler<N extends JobName>(name: N): JobHandler<N> {
    const handler = this.handlers.get(name);
    if (!handler) throw new Error(`No processor is registered for job ${name}`);
    return handler as unknown as JobHandler<N>;
  }

  private inContext(work: () => Promise<void>): Promise<void> {
    return RequestContext.create(this.orm.em, work);
  }
}
