import { Injectable, Logger } from '@nestjs/common';
import { Interval, Timeout } from '@nestjs/schedule';
import { EntityManager } from '@mikro-orm/postgresql';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import { QueueUnavailableError } from 'src/platform/queue/queue.errors';
import { mailMessageSchema, type MailMessage } from './mail-message';
import { MailOutbox } from './mail-outbox.port';
import { OutboxMailSchema } from './mail-outbox.entity';

/** The job id of an outbox row: adding the same row twice while its job exists is a no-op. */
export const outboxJobId = (outboxId: string) => `mail-${outboxId}`;

@Injectable()
export class MikroOrmMailOutbox extends MailOutbox {
  private readonly logger = new Logger('Mail');

  constructor(
    private readonly em: EntityManager,
    private readonly jobs: JobQueue,
  ) {
    super();
  }

  async send(message: MailMessage): Promise<void> {
    const valid = mailMessageSchema.parse(message);
    const em = this.em.fork();
    const row = em.create(OutboxMailSchema, { ...valid, createdAt: new Date() });
    await em.flush();
    try {
      await this.jobs.enqueue('mail.send', { outboxId: row.id }, { jobId: outboxJobId(row.id) });
    } catch (error) {
      if (!(error instanceof QueueUnavailableError)) throw error;
      this.logger.warn(`Mail ${row.id} kept in the outbox: the queue is unavailable; the sweeper queues it after ${RESEND_AFTER_MS / 60_000} minutes`);
    }
  }
}

/** Unsent messages are queued again after this long (their job was never queued, or gave up). */
const RESEND_AFTER_MS = 5 * 60_000;
/** Older messages are dropped: their links have expired (confirmation links last 24 hours). */
const KEEP_MS = 24 * 60 * 60_000;

/**
 * Scheduled where the jobs run (the worker, or the web process without Redis: the processes that
 * import ScheduleModule): soon after start and every minute, queues the messages still waiting in
 * the outbox, and deletes the expired ones.
 */
@Injectable()
export class MailOutboxSweeper {
  private readonly logger = new Logger('Mail');

  constructor(
    private readonly em: EntityManager,
    private readonly jobs: JobQueue,
  ) {}

  // Two methods: @nestjs/schedule keeps one schedule per method (a second decorator replaces the first).
  @Timeout(1_000)
  async atStart(): Promise<void> {
    await this.run();
  }

  @Interval(60_000)
  async run(): Promise<void> {
    await this.sweep(new Date()).catch((error: unknown) => this.logger.warn({ err: error }, 'Outbox sweep failed'));
  }

  /** Returns how many messages were queued again. */
  async sweep(now: Date): Promise<number> {
    const em = this.em.fork();
    const expired = await em.nativeDelete(OutboxMailSchema, { createdAt: { $lt: new Date(now.getTime() - KEEP_MS) } });
    if (expired) this.logger.warn(`${expired} unsent message(s) older than a day dropped from the outbox`);
    const waiting = await em.find(
      OutboxMailSchema,
      { createdAt: { $lt: new Date(now.getTime() - RESEND_AFTER_MS) } },
      { fields: ['id'], orderBy: { createdAt: 'asc' }, limit: 500 },
    );
    // retryFailed: a job that gave up (SMTP down longer than its retries) stays in Redis under this
    // id, so a plain enqueue would do nothing and the message would never go out.
    for (const { id } of waiting) await this.jobs.enqueue('mail.send', { outboxId: id }, { jobId: outboxJobId(id), retryFailed: true });
    return waiting.length;
  }
}
