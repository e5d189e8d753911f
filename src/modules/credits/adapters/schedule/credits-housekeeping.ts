import { Injectable, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { RecurringWork } from 'src/platform/schedule/recurring-work';
import { CreditRemindersService } from '../../application/credit-reminders.service';
import { CreditsService } from '../../application/credits.service';

/** Every minute where the jobs run: expiries into the history, owed trials granted; with payments on, the reminder mails due. */
@Injectable()
export class CreditsHousekeeping implements OnModuleInit {
  constructor(
    private readonly work: RecurringWork,
    private readonly credits: CreditsService,
    private readonly reminders: CreditRemindersService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.work.register({ name: 'credits.housekeeping', firstDelayMs: 2_000, everyMs: 60_000, run: () => this.credits.housekeeping() });
    if (this.config.payments.enabled) this.work.register({ name: 'credits.reminders', firstDelayMs: 5_000, everyMs: this.config.payments.reminders.everyMs, run: () => this.reminders.run() });
  }
}
