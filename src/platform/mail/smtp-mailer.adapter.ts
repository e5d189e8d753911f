import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { AppConfig } from 'src/config/app-config';
import { unsubscribeHeaders, type MailMessage } from './mail-message';
import { Mailer, MailOutcomeUnknownError, MailRejectedError, type SendOptions } from './mailer.port';

interface SmtpError {
  code?: string;
  responseCode?: number;
  permanent?: boolean;
  timeoutType?: string;
}

/**
 * The longest one send may take: connecting, the greeting, and two of the longest silences (the
 * reply to the end of DATA is the long one); past it the send is aborted. The outbox leases an
 * entry for longer than this, so no second send of it starts while one may be running.
 */
export const smtpSendDeadlineMs = (t: AppConfig['mail']['timeouts']) => t.connectionMs + t.greetingMs + 2 * t.socketIdleMs;

/** Sends through the SMTP server at SMTP_URL (smtp:// with STARTTLS when offered, or smtps://). */
@Injectable()
export class SmtpMailer extends Mailer implements OnApplicationShutdown {
  private readonly transport: Transporter;
  private readonly deadlineMs: number;

  constructor(config: AppConfig) {
    super();
    if (!config.mail.smtpUrl) throw new Error('SmtpMailer needs SMTP_URL');
    // RFC 5321 4.5.3.2 timeouts by default (SMTP_*_TIMEOUT_MS): a server slower than the mailer's
    // patience still takes the message, and each early give-up was one more copy (issue 33).
    const t = config.mail.timeouts;
    this.deadlineMs = smtpSendDeadlineMs(t);
    this.transport = createTransport(
      { url: config.mail.smtpUrl, connectionTimeout: t.connectionMs, greetingTimeout: t.greetingMs, socketTimeout: t.socketIdleMs },
      { from: config.mail.from },
    );
  }

  async send(message: MailMessage, options: SendOptions = {}): Promise<void> {
    try {
      await this.transport.sendMail({
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: options.messageId,
        headers: unsubscribeHeaders(message),
        signal: AbortSignal.timeout(this.deadlineMs),
      });
    } catch (error) {
      // A 5xx to the recipient or the message is final; connection, auth and 4xx failures are retried.
      const smtp = error as SmtpError;
      if (smtp.permanent && smtp.responseCode && (smtp.code === 'EENVELOPE' || smtp.code === 'EMESSAGE')) {
        throw new MailRejectedError(smtp.responseCode);
      }
      // Silence once connected (e.g. no reply to the end of DATA) or the deadline: the server may have it.
      if ((smtp.code === 'ETIMEDOUT' && smtp.timeoutType === 'SOCKET_TIMEOUT') || smtp.code === 'EABORT') {
        throw new MailOutcomeUnknownError({ cause: error });
      }
      throw error;
    }
  }

  onApplicationShutdown(): void {
    this.transport.close();
  }
}
