import { Logger, Module } from '@nestjs/common';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { AppConfig } from 'src/config/app-config';
import { OutboxModule } from 'src/platform/outbox/outbox.module';
import { QueueModule } from 'src/platform/queue/queue.module';
import { FileMailer } from './file-mailer.adapter';
import { MailGiveUps, MailOutbox } from './mail-outbox.port';
import { MikroOrmMailOutbox } from './mikro-orm-mail-outbox.adapter';
import { OutboxMailSchema } from './mail-outbox.entity';
import { MailSendProcessor } from './mail-send.processor';
import { Mailer } from './mailer.port';
import { SmtpMailer } from './smtp-mailer.adapter';

/**
 * Mail: MailOutbox to send (stored, then a 'mail.send' job with the row id), the Mailer port
 * (SMTP at SMTP_URL, else .eml files under DATA_DIR/mail) and the job that calls it.
 * The outbox registers with the OutboxRelay, which queues again where the jobs run what still waits.
 */
@Module({
  imports: [MikroOrmModule.forFeature([OutboxMailSchema]), QueueModule, OutboxModule],
  providers: [
    {
      provide: Mailer,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        if (config.mail.smtpUrl) return new SmtpMailer(config);
        if (config.isProduction) {
          new Logger('Mail').warn(`SMTP_URL is not set: mail is written under ${config.mail.dir} (not sent)`);
        }
        return new FileMailer(config);
      },
    },
    MailSendProcessor,
    MikroOrmMailOutbox,
    { provide: MailOutbox, useExisting: MikroOrmMailOutbox },
    { provide: MailGiveUps, useExisting: MikroOrmMailOutbox },
  ],
  exports: [Mailer, MailOutbox, MailGiveUps],
})
export class MailModule {}

