import { Module } from '@nestjs/common';
import { AuthGuardsModule } from 'src/modules/auth/auth-guards.module';
import { AuthModule } from 'src/modules/auth/auth.module';
import { CreditsModule } from 'src/modules/credits/credits.module';
import { ImageToolModule } from 'src/modules/image-tool/image-tool.module';
import { MailModule } from 'src/platform/mail/mail.module';
import { AccountController } from './adapters/http/account.controller';
import { PostgresAccountRecords } from './adapters/persistence/postgres-account-records.adapter';
import { AccountService } from './application/account.service';
import { AccountRecords } from './domain/account-records.port';

/**
 * The account as its owner manages it: its page, a new password, the data export and deletion.
 * No tables of its own: it reads and erases the other modules' rows of one account (AccountRecords).
 */
@Module({
  imports: [AuthGuardsModule, AuthModule, CreditsModule, ImageToolModule, MailModule],
  controllers: [AccountController],
  providers: [AccountService, { provide: AccountRecords, useClass: PostgresAccountRecords }],
})
export class AccountModule {}
