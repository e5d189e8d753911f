import { mailMessageSchema, type MailMessage } from '../mail-message';
import { MailGiveUps, MailOutbox, type GivenUpMail } from '../mail-outbox.port';

/**
 * The mail outbox in memory, for specs: keeps each message as stored, checked against the same
 * caps as the real one (mailMessageSchema). The SQL outbox and its relay are proven by
 * test/jobs.int-spec.ts.
 */
export class RecordingMailOutbox extends MailOutbox implements MailGiveUps {
  readonly sent: MailMessage[] = [];
  /** What givenUp answers: the messages a spec says the relay gave up on. */
  readonly gaveUp: GivenUpMail[] = [];

  async send(message: MailMessage): Promise<void> {
    this.sent.push(mailMessageSchema.parse(message));
  }

  async givenUp(limit: number): Promise<GivenUpMail[]> {
    return this.gaveUp.slice(0, limit);
  }

  mails(): MailMessage[] {
    return this.sent;
  }
}
