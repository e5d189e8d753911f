import { Injectable, Logger } from '@nestjs/common';

type ConfirmedListener = (userId: string) => Promise<unknown>;

/**
 * What other modules may hear about accounts, registered from their onModuleInit (the credits
 * module grants the free trial on confirmation). A listener's failure is logged and never undoes
 * the account change: the listener's owner catches up on its own (the trial backfill).
 */
@Injectable()
export class AccountEvents {
  private readonly logger = new Logger('Auth');
  private readonly confirmedListeners: ConfirmedListener[] = [];

  /** Called once per account when its address is first proven (email link, reset, or Google). */
  onConfirmed(listener: ConfirmedListener): void {
    this.confirmedListeners.push(listener);
  }

  async confirmed(userId: string): Promise<void> {
    for (const listener of this.confirmedListeners) {
      try {
        await listener(userId);
      } catch (error) {
        this.logger.warn({ err: error }, `A listener of account confirmation failed for user ${userId}`);
      }
    }
  }
}
