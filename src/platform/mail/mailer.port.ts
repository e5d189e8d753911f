import { AppError } from 'src/platform/errors/app-error';
import type { MailMessage } from './mail-message';

/**
 * Sends one message. Adapters: SmtpMailer (SMTP_URL set) and FileMailer (nothing configured:
 * messages land under DATA_DIR/mail and their first link is logged). Modules do not call it
 * directly for user mail: they enqueue 'mail.send', so a slow or failing server is retried.
 */
export abstract class Mailer {
  abstract send(message: MailMessage): Promise<void>;
}

/** The mail server refused this message for good (a 5xx answer): sending it again would not help. */
export class MailRejectedError extends AppError {
  readonly code = 'MAIL.REJECTED';
  readonly kind = 'unavailable';

  constructor(readonly responseCode: number) {
    super(`The mail server rejected the message (${responseCode})`);
  }
}
