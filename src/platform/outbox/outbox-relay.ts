import { Injectable, Logger } from '@nestjs/common';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import type { JobData, JobName } from 'src/platform/queue/jobs';
import { RecurringWork } from 'src/platform/schedule/recurring-work';

/**
 * The port of an outbox's table: rows written in the same transaction as the change they stand for
 * (a message to send, an image job to run), each done by its job, which removes or finishes it.
 */
export abstract class OutboxEntries {
  /** Ids of the entries written before `before` whose job has not done its work yet, oldest first. */
  abstract waiting(before: Date, limit: number): Promise<string[]>;
  /** Drops entries no longer worth handing over (a message whose links have expired), before each pass. */
  dropExpired?(now: Date): Promise<void>;
}

/** An outbox the relay serves: where its entries wait, the job each becomes, and how often it looks. */
export interface Outbox<N extends JobName = JobName> {
  /** Names it in logs and in the schedule ('outbox.<name>'). */
  name: string;
  entries: OutboxEntries;
  job: N;
  data(id: string): JobData<N>;
  /** The same job id for an entry each time: a hand-off while its job is known to the queue does nothing. */
  jobId(id: string): string;
  /** The entry's place in its queue, when the queue orders by priority (the image jobs' fairness). */
  priority?(id: string): Promise<number | undefined>;
  /**
   * The sender hands an entry to the queue itself once its transaction commits; the relay takes
   * the entries still waiting this long after they were written (the queue was down, or the job
   * gave up or was lost).
   */
  relayAfterMs: number;
  /** Entries handed over per pass, at most. */
  batch: number;
  firstDelayMs: number;
  everyMs: number;
}

/**
 * The one outbox relay: each registered outbox is polled where the jobs run (a recurring task),
 * and its waiting entries handed to the queue again. At least once: an entry is handed over on
 * every pass until its job has done its work; the job id makes a second hand-off of a live job a
 * no-op, and the job itself does nothing for an entry already done. While the queue is down the
 * pass stops at the first refusal, and the next one tries again.
 */
@Injectable()
export class OutboxRelay {
  private readonly logger = new Logger('Outbox');
  private readonly outboxes = new Map<string, Outbox>();

  constructor(
    private readonly queue: JobQueue,
    private readonly work: RecurringWork,
  ) {}

  register<N extends JobName>(outbox: Outbox<N>): void {
    if (this.outboxes.has(outbox.name)) throw new Error(`An outbox ${outbox.name} is already registered`);
    this.outboxes.set(outbox.name, outbox as unknown as Outbox);
    this.work.register({ name: `outbox.${outbox.name}`, firstDelayMs: outbox.firstDelayMs, everyMs: outbox.everyMs, run: () => this.relay(outbox.name) });
  }

  /** One pass over an outbox; returns how many entries were handed to the queue. */
  async relay(name: string, now = new Date()): Promise<number> {
    const outbox = this.outboxes.get(name);
    if (!outbox) throw new Error(`No outbox ${name} is registered`);
    await outbox.entries.dropExpired?.(now);
    const ids = await outbox.entries.waiting(new Date(now.getTime() - outbox.relayAfterMs), outbox.batch);
    // retryFailed: a job that gave up (its outage outlasted its attempts) stays in Redis under its
    // id, so a plain enqueue would do nothing and the entry would wait for ever.
    for (const id of ids) await this.queue.enqueue(outbox.job, outbox.data(id), { jobId: outbox.jobId(id), retryFailed: true, priority: await outbox.priority?.(id) });
    if (ids.length) this.logger.log(`${ids.length} waiting entr${ids.length === 1 ? 'y' : 'ies'} of the ${name} outbox handed to the queue again`);
    return ids.length;
  }
}
