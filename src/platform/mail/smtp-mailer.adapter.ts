import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { AppConfig } from 'src/config/app-config';
import type { MailMessage } from './mail-message';
import { Mailer, MailRejectedError } from './mailer.port';

interface SmtpError {
  code?: string;
  responseCode?: number;
  permanent?: boolean;
}

/**
 * A stuck SMTP server fails the attempt (retried later) well within the worker's shutdown limit
 * (WORKER_SHUTDOWN_TIMEOUT_MS), so a deploy never cuts a send off half-way and runs it again.
 */
export const SMTP_TIMEOUTS = { connectionMs: 5_000, greetingMs: 5_000, socketIdleMs: 10_000 } as const;

/** Sends through the SMTP server at SMTP_URL (smtp:// with STARTTLS when offered, or smtps://). */
@Injectable()
export class SmtpMailer extends Mailer implements OnApplicationShutdown {
  private readonly transport: Transporter;

  constructor(config: AppConfig) {
    super();
    if (!config.mail.smtpUrl) throw new Error('SmtpMailer needs SMTP_URL');
    this.transport = createTransport(
      {
        url: config.mail.smtpUrl,
        connectionTimeout: SMTP_TIMEOUTS.connectionMs,
        greetingTimeout: SMTP_TIMEOUTS.greetingMs,
        socketTimeout: SMTP_TIMEOUTS.socketIdleMs,
      },
      { from: config.mail.from },
    );
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail({ to: message.to, subject: message.subject, text: message.text, html: message.html });
    } catch (error) {
      // A 5xx to the recipient or the message is final; connection, auth and 4xx failures are retried.
      const smtp = error as SmtpError;
      if (smtp.permanent && smtp.responseCode && (smtp.code === 'EENVELOPE' || smtp.code === 'EMESSAGE')) {
        throw new MailRejectedError(smtp.responseCode);
      }
      throw error;
    }
  }

  onApplicationShutdown(): void {
    this.transport.close();
  }
}
