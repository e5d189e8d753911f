import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEntries, OutboxRelay } from 'src/platform/outbox/outbox-relay';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import { QueueUnavailableError } from 'src/platform/queue/queue.errors';
import { mailMessageSchema, type MailMessage } from './mail-message';
import { MailOutbox } from './mail-outbox.port';
import { OutboxMailSchema } from './mail-outbox.entity';

/** The job id of an outbox row: adding the same row twice while its job exists is a no-op. */
export const outboxJobId = (outboxId: string) => `mail-${outboxId}`;

/** Unsent messages are queued again after this long (their job was never queued, or gave up). */
const RESEND_AFTER_MS = 5 * 60_000;
/** Older messages are dropped: their links have expired (confirmation links last 24 hours). */
const KEEP_MS = 24 * 60 * 60_000;

/**
 * The outbox in PostgreSQL, registered with the OutboxRelay: where the jobs run, soon after start
 * and every minute, the messages still waiting after five minutes are queued again and those
 * older than a day deleted.
 */
@Injectable()
export class MikroOrmMailOutbox extends MailOutbox implements OutboxEntries, OnModuleInit {
  private readonly logger = new Logger('Mail');

  constructor(
    private readonly em: EntityManager,
    private readonly jobs: JobQueue,
    private readonly relay: OutboxRelay,
  ) {
    super();
  }

  onModuleInit(): void {
    this.relay.register({
      name: 'mail',
      entries: this,
      job: 'mail.send',
      data: (outboxId) => ({ outboxId }),
      jobId: outboxJobId,
      relayAfterMs: RESEND_AFTER_MS,
      batch: 500,
      firstDelayMs: 1_000,
      everyMs: 60_000,
    });
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
      this.logger.warn(`Mail ${row.id} kept in the outbox: the queue is unavailable; the relay queues it after ${RESEND_AFTER_MS / 60_000} minutes`);
    }
  }

  async waiting(before: Date, limit: number): Promise<string[]> {
    const rows = await this.em.fork().find(OutboxMailSchema, { createdAt: { $lt: before } }, { fields: ['id'], orderBy: { createdAt: 'asc' }, limit });
    return rows.map((row) => row.id);
  }

  async dropExpired(now: Date): Promise<void> {
    const expired = await this.em.fork().nativeDelete(OutboxMailSchema, { createdAt: { $lt: new Date(now.getTime() - KEEP_MS) } });
    if (expired) this.logger.warn(`${expired} unsent message(s) older than a day dropped from the outbox`);
  }
}
