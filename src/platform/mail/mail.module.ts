import { Global, Logger, Module } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { FileMailer } from './file-mailer.adapter';
import { MailSendProcessor } from './mail-send.processor';
import { Mailer } from './mailer';
import { SmtpMailer } from './smtp-mailer.adapter';

/**
 * Mail: the Mailer port (SMTP at SMTP_URL, else .eml files under DATA_DIR/mail) and the
 * 'mail.send' job that calls it. Needs QueueModule (global) for JobProcessors.
 */
@Global()
@Module({
  providers: [
    {
      provide: Mailer,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        if (config.mail.smtpUrl) return new SmtpMailer(config);
        if (config.isProduction) {
          new Logger('Mail').warn(`SMTP_URL is not set: mail is written under ${config.mail.dir} and its links are logged`);
        }
        return new FileMailer(config);
      },
    },
    MailSendProcessor,
  ],
  exports: [Mailer],
})
export class MailModule {}
