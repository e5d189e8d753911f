import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { AppConfig } from 'src/config/app-config';
import { JobProcessors } from 'src/platform/queue/job-processors';
import { describeFailure, PermanentJobError } from 'src/platform/queue/queue.errors';
import { OutboxMailSchema } from './mail-outbox.entity';
import { Mailer, MailOutcomeUnknownError, MailRejectedError } from './mailer.port';
import { smtpSendDeadlineMs } from './smtp-mailer.adapter';

/** The error and its cause as codes (never the message, which may quote an address): what /admin shows. */
const lastErrorOf = (error: unknown) =>
  [error, error instanceof Error ? error.cause : undefined]
    .filter((e) => e instanceof Error)
    .map(describeFailure)
    .join(' <- ')
    .slice(0, 500);

/** Attempts whose outcome is unknown before giving up: each may be a copy, so at most two copies ever. */
export const MAIL_UNKNOWN_OUTCOMES_MAX = 2;

interface Claimed {
  to: string;
  subject: string;
  text: string;
  html: string;
  list_unsubscribe: string | null;
  attempts: number;
  unknown_outcomes: number;
}

/**
 * Runs the 'mail.send' job: claims the outbox row (a lease, one attempt counted), one Mailer.send
 * with the row's own Message-ID, then deletes the row. A row gone was sent; a row leased by a send
 * in flight, or given up, is left alone (a duplicate job does nothing). An entry gives up, kept with
 * its last error for /admin, when the server refuses it for good, after MAIL_MAX_ATTEMPTS attempts in
 * all (the relay's new rounds included), or after a second attempt whose outcome is unknown.
 */
@Injectable()
export class MailSendProcessor implements OnModuleInit {
  private readonly logger = new Logger('Mail');
  private readonly leaseMs: number;
  private readonly maxAttempts: number;
  private readonly domain: string;

  constructor(
    private readonly processors: JobProcessors,
    private readonly mailer: Mailer,
    private readonly em: EntityManager,
    config: AppConfig,
  ) {
    // Longer than the longest send (aborted at its deadline), so no second send starts beside one.
    this.leaseMs = smtpSendDeadlineMs(config.mail.timeouts) + 60_000;
    this.maxAttempts = config.mail.maxAttempts;
    this.domain = /@([^\s>]+)>?\s*$/.exec(config.mail.from)?.[1] ?? 'localhost';
  }

  /** The entry's Message-ID, the same on every attempt: providers drop a copy they have seen. */
  messageId(outboxId: string): string {
    return `<${outboxId}@${this.domain}>`;
  }

  onModuleInit(): void {
    this.processors.register('mail.send', async ({ outboxId }) => {
      // this.em resolves to the job's own context: JobProcessors.run opens one per attempt.
      const [message] = await this.em.execute<Claimed[]>(
        // A lease still set but expired: that attempt's process died mid-send (a deploy, a crash), its
        // outcome unknown, so it counts as one, and two such end the entry before a third send.
        `update mail_outbox
         set attempts = attempts + 1, unknown_outcomes = unknown_outcomes + (sending_until is not null)::int,
             sending_until = now() + (? * interval '1 millisecond')
         where id = ? and failed_at is null and attempts < ? and (sending_until is null or sending_until < now())
           and unknown_outcomes + (sending_until is not null)::int < ?
         returning "to", subject, text, html, list_unsubscribe, attempts, unknown_outcomes`,
        [this.leaseMs, outboxId, this.maxAttempts, MAIL_UNKNOWN_OUTCOMES_MAX],
      );
      if (!message) return this.notClaimed(outboxId);
      try {
        const listUnsubscribe = message.list_unsubscribe ?? undefined;
        await this.mailer.send({ to: message.to, subject: message.subject, text: message.text, html: message.html, listUnsubscribe }, { messageId: this.messageId(outboxId) });
      } catch (error) {
        const unknown = error instanceof MailOutcomeUnknownError;
        const unknownOutcomes = message.unknown_outcomes + (unknown ? 1 : 0);
        const why =
          error instanceof MailRejectedError ? 'refused for good'
          : unknown && unknownOutcomes >= MAIL_UNKNOWN_OUTCOMES_MAX ? `no answer ${unknownOutcomes} times (it may have arrived)`
          : message.attempts >= this.maxAttempts ? `${message.attempts} attempts`
          : undefined;
        await this.em.nativeUpdate(OutboxMailSchema, { id: outboxId }, { sendingUntil: null, unknownOutcomes, lastError: lastErrorOf(error), ...(why ? { failedAt: new Date() } : {}) });
        if (!why) throw error;
        this.logger.warn(`Mail ${outboxId} given up: ${why}; kept with its last error on /admin`);
        throw new PermanentJobError(error instanceof Error ? error.message : String(error), { cause: error });
      }
      await this.em.nativeDelete(OutboxMailSchema, { id: outboxId });
    });
  }

  /** Why a job found nothing to send: sent already, given up, in flight elsewhere, or out of attempts or of unknown outcomes. */
  private async notClaimed(outboxId: string): Promise<void> {
    const row = await this.em.findOne(OutboxMailSchema, { id: outboxId });
    if (!row || row.failedAt) return;
    if (row.sendingUntil && row.sendingUntil > new Date()) {
      this.logger.log(`Mail ${outboxId} is being sent by another attempt: this one does nothing`);
      return;
    }
    const unknownOutcomes = row.unknownOutcomes + (row.sendingUntil ? 1 : 0);
    const why = unknownOutcomes >= MAIL_UNKNOWN_OUTCOMES_MAX ? `no answer ${unknownOutcomes} times (it may have arrived)` : `${row.attempts} attempts`;
    const lastError = row.sendingUntil ? 'A send was cut off (its process stopped mid-send)' : (row.lastError ?? `${row.attempts} attempts used`);
    await this.em.nativeUpdate(OutboxMailSchema, { id: outboxId }, { failedAt: new Date(), sendingUntil: null, unknownOutcomes, lastError });
    this.logger.warn(`Mail ${outboxId} given up: ${why}; kept with its last error on /admin`);
  }
}
