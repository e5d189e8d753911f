import { Module, type OnModuleInit } from '@nestjs/common';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { AuthGuardsModule } from 'src/modules/auth/auth-guards.module';
import { AccountEvents } from 'src/modules/auth';
import { CreditsController } from './adapters/http/credits.controller';
import { RemindersController } from './adapters/http/reminders.controller';
import { PostgresReminderStore } from './adapters/persistence/postgres-reminder-store.adapter';
import { CreditRemindersService } from './application/credit-reminders.service';
import { ReminderStore } from './domain/reminder-store.port';
import { MailModule } from 'src/platform/mail/mail.module';
import { PaymentsEnabledGuard } from './adapters/http/payments-enabled.guard';
import { CREDITS_ENTITIES } from './adapters/persistence/credits.entities';
import { PostgresCreditLedger } from './adapters/persistence/postgres-credit-ledger.adapter';
import { CreditsHousekeeping } from './adapters/schedule/credits-housekeeping';
import { CreditsService } from './application/credits.service';
import { CreditLedger } from './domain/credit-ledger.port';
import { RecurringWorkModule } from 'src/platform/schedule/recurring-work.module';

/**
 * Credits: the ledger (lots, charges, history) other modules spend through (CreditLedger), the
 * free trial granted on account confirmation, the balance and usage API, and its housekeeping.
 */
@Module({
  imports: [AuthGuardsModule, RecurringWorkModule, MailModule, MikroOrmModule.forFeature(CREDITS_ENTITIES)],
  controllers: [CreditsController, RemindersController],
  providers: [
    CreditsService,
    CreditRemindersService,
    PaymentsEnabledGuard,
    CreditsHousekeeping,
    { provide: CreditLedger, useClass: PostgresCreditLedger },
    { provide: ReminderStore, useClass: PostgresReminderStore },
  ],
  exports: [CreditLedger, CreditsService, CreditRemindersService, PaymentsEnabledGuard],
})
export class CreditsModule implements OnModuleInit {
  constructor(
    private readonly accounts: AccountEvents,
    private readonly credits: CreditsService,
  ) {}

  onModuleInit(): void {
    this.accounts.onConfirmed((userId) => this.credits.grantTrial(userId));
  }
}
