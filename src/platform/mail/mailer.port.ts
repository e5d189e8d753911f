import { AppError } from 'src/platform/errors/app-error';
import type { MailMessage } from './mail-message';

/** How one send is made: the same Message-ID on every attempt, so a provider drops a second copy. */
export interface SendOptions {
  messageId?: string;
}

/**
 * Sends one message. Adapters: SmtpMailer (SMTP_URL set) and FileMailer (nothing configured:
 * messages land under DATA_DIR/mail and their first link is logged). Modules do not call it
 * directly for user mail: they enqueue 'mail.send', so a slow or failing server is retried.
 */
export abstract class Mailer {
  abstract send(message: MailMessage, options?: SendOptions): Promise<void>;
}

/** The mail server refused this message for good (a 5xx answer): sending it again would not help. */
export class MailRejectedError extends AppError {
  readonly code = 'MAIL.REJECTED';
  readonly kind = 'unavailable';

  constructor(readonly responseCode: number) {
    super(`The mail server rejected the message (${responseCode})`);
  }
}

/**
 * The server went quiet after the send began (or the send's deadline passed): it may hold the
 * message, so another attempt may be a second copy.
 */
export class MailOutcomeUnknownError extends AppError {
  readonly code = 'MAIL.OUTCOME_UNKNOWN';
  readonly kind = 'unavailable';

  constructor(options?: { cause?: unknown }) {
    super('The mail server did not answer in time; it may have the message');
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}
