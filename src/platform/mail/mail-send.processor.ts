import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { JobProcessors } from 'src/platform/queue/job-processors';
import { PermanentJobError } from 'src/platform/queue/queue.errors';
import { OutboxMailSchema } from './mail-outbox.entity';
import { Mailer, MailRejectedError } from './mailer.port';

/**
 * Runs the 'mail.send' job: loads the outbox row, one Mailer.send per attempt, then deletes the
 * row. A row already gone was sent (a duplicate job does nothing); a message the server refuses
 * for good is dropped, not retried.
 */
@Injectable()
export class MailSendProcessor implements OnModuleInit {
  constructor(
    private readonly processors: JobProcessors,
    private readonly mailer: Mailer,
    private readonly em: EntityManager,
  ) {}

  onModuleInit(): void {
    this.processors.register('mail.send', async ({ outboxId }) => {
      // A context of its own per job, never the global EntityManager.
      const em = this.em.fork();
      const message = await em.findOne(OutboxMailSchema, { id: outboxId });
      if (!message) return;
      try {
        await this.mailer.send({ to: message.to, subject: message.subject, text: message.text, html: message.html });
      } catch (error) {
        if (error instanceof MailRejectedError) {
          await em.nativeDelete(OutboxMailSchema, { id: outboxId });
          throw new PermanentJobError(error.message, { cause: error });
        }
        throw error;
      }
      await em.nativeDelete(OutboxMailSchema, { id: outboxId });
    });
  }
}
