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
