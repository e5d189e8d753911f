import type { ProgressLevels } from 'src/contracts/progress';

/** A signed-in player's progress, dated on the server's clock (milliseconds since 1970). */
export interface AccountProgress {
  levels: ProgressLevels;
  /** When the player last cleared everything; null if never. */
  clearedAt: number | null;
  /** Counts the updates that changed an entry (0 before the first): a browser's cursor names one. */
  revision: number;
  /** Per level, the revision that last changed its entry. */
  changedIn: Record<number, number>;
}

export abstract class AccountProgressRepository {
  /**
   * Reads the account's progress and stores what `merge` makes of it, one update at a time per
   * account (two devices syncing at once cannot lose each other's changes): the entries it changes
   * get the next revision. Answers what is stored.
   */
  abstract update(userId: string, merge: (current: AccountProgress) => ProgressLevels): Promise<AccountProgress>;
  abstract read(userId: string): Promise<AccountProgress>;
  /** Forgets every entry and remembers when, so a browser's older entries are dropped at its next sync. */
  abstract clear(userId: string, at: Date): Promise<void>;
}
