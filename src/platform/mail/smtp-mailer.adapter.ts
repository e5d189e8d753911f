import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { AppConfig } from 'src/config/app-config';
import type { MailMessage } from './mail-message';
import { Mailer, MailRejectedError } from './mailer';

interface SmtpError {
  code?: string;
  responseCode?: number;
  permanent?: boolean;
}

/** Sends through the SMTP server at SMTP_URL (smtp:// with STARTTLS when offered, or smtps://). */
@Injectable()
export class SmtpMailer extends Mailer implements OnApplicationShutdown {
  private readonly transport: Transporter;

  constructor(config: AppConfig) {
    super();
    if (!config.mail.smtpUrl) throw new Error('SmtpMailer needs SMTP_URL');
    // Short timeouts: a stuck server fails the attempt and the job is retried later.
    this.transport = createTransport(
      { url: config.mail.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
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
