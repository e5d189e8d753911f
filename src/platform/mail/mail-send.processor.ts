import { Injectable, type OnModuleInit } from '@nestjs/common';
import { JobProcessors } from 'src/platform/queue/job-processors';
import { PermanentJobError } from 'src/platform/queue/queue.errors';
import { Mailer, MailRejectedError } from './mailer';

/** Runs the 'mail.send' job: one Mailer.send per attempt; a message the server refuses for good is not retried. */
@Injectable()
export class MailSendProcessor implements OnModuleInit {
  constructor(
    private readonly processors: JobProcessors,
    private readonly mailer: Mailer,
  ) {}

  onModuleInit(): void {
    this.processors.register('mail.send', async (message) => {
      try {
        await this.mailer.send(message);
      } catch (error) {
        if (error instanceof MailRejectedError) throw new PermanentJobError(error.message, { cause: error });
        throw error;
      }
    });
  }
}
