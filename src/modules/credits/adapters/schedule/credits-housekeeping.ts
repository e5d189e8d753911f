import { Injectable, type OnModuleInit } from '@nestjs/common';
import { RecurringWork } from 'src/platform/schedule/recurring-work';
import { CreditsService } from '../../application/credits.service';

/** Every minute where the jobs run: expiries into the history, owed trials granted. */
@Injectable()
export class CreditsHousekeeping implements OnModuleInit {
  constructor(
    private readonly work: RecurringWork,
    private readonly credits: CreditsService,
  ) {}

  onModuleInit(): void {
    this.work.register({ name: 'credits.housekeeping', firstDelayMs: 2_000, everyMs: 60_000, run: () => this.credits.housekeeping() });
  }
}
