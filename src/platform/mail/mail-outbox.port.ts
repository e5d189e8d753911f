import type { MailMessage } from './mail-message';

/**
 * How modules send mail: the message is stored (PostgreSQL), then a 'mail.send' job carrying only
 * its id is queued. Resolves once the message is stored: the outbox is the promise. If queueing
 * fails (Redis down), that is logged and the relay queues it later; failing the caller would only
 * make it try again and send a second message.
 */
export abstract class MailOutbox {
  abstract send(message: MailMessage): Promise<void>;
}

/** The messages the outbox gave up on (kept 7 days), for /admin; the same adapter as MailOutbox. */
export abstract class MailGiveUps {
  abstract givenUp(limit: number): Promise<GivenUpMail[]>;
}

/** A message the outbox gave up on, as /admin lists it: no address, no body. */
export interface GivenUpMail {
  id: string;
  subject: string;
  createdAt: Date;
  failedAt: Date;
  attempts: number;
  lastError: string;
}
