import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { OutboxEntries, OutboxRelay } from 'src/platform/outbox/outbox-relay';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import { QueueUnavailableError } from 'src/platform/queue/queue.errors';
import { mailMessageSchema, type MailMessage } from './mail-message';
import { MailOutbox, type GivenUpMail, type MailGiveUps } from './mail-outbox.port';
import { OutboxMailSchema } from './mail-outbox.entity';

/** The job id of an outbox row: adding the same row twice while its job exists is a no-op. */
export const outboxJobId = (outboxId: string) => `mail-${outboxId}`;

/** Unsent messages are queued again after this long (their job was never queued, or gave up). */
const RESEND_AFTER_MS = 5 * 60_000;
/** Older messages are dropped: their links have expired (confirmation links last 24 hours). */
const KEEP_MS = 24 * 60 * 60_000;
/** Messages that gave up stay this long, listed on /admin with their last error (as BullMQ keeps failed jobs). */
const KEEP_GIVEN_UP_MS = 7 * 24 * 60 * 60_000;

/**
 * The outbox in PostgreSQL, registered with the OutboxRelay: where the jobs run, soon after start
 * and every minute, the messages still waiting after five minutes are queued again and those
 * older than a day deleted.
 */
@Injectable()
export class MikroOrmMailOutbox extends MailOutbox implements OutboxEntries, MailGiveUps, OnModuleInit {
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
    // Never an entry given up (its count is final) or one whose send is in flight (its lease holds).
    const rows = await this.em.fork().find(
      OutboxMailSchema,
      { createdAt: { $lt: before }, failedAt: null, $or: [{ sendingUntil: null }, { sendingUntil: { $lt: new Date() } }] },
      { fields: ['id'], orderBy: { createdAt: 'asc' }, limit },
    );
    return rows.map((row) => row.id);
  }

  async dropExpired(now: Date): Promise<void> {
    const em = this.em.fork();
    const expired = await em.nativeDelete(OutboxMailSchema, { createdAt: { $lt: new Date(now.getTime() - KEEP_MS) }, failedAt: null });
    if (expired) this.logger.warn(`${expired} unsent message(s) older than a day dropped from the outbox`);
    await em.nativeDelete(OutboxMailSchema, { failedAt: { $lt: new Date(now.getTime() - KEEP_GIVEN_UP_MS) } });
  }

  async givenUp(limit: number): Promise<GivenUpMail[]> {
    const rows = await this.em.fork().find(OutboxMailSchema, { failedAt: { $ne: null } }, { orderBy: { failedAt: 'desc' }, limit });
    return rows.map((row) => ({ id: row.id, subject: row.subject, createdAt: row.createdAt, failedAt: row.failedAt!, attempts: row.attempts, lastError: row.lastError ?? '' }));
  }
}
