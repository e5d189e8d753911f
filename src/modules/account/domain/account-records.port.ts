import type { AccountExport } from 'src/contracts/account-export';

/** What an account's data export reads from the database (everything but the mail switches, which are credits'). */
export type AccountRecordsExport = Omit<AccountExport, 'exported_at' | 'kept_after_deletion' | 'mail_preferences' | 'account' | 'guide_reports_and_votes'>;

/**
 * The account's records across the modules' tables, read and erased in one place: deletion must
 * be one transaction (all or nothing), and the export one consistent read.
 */
export abstract class AccountRecords {
  abstract export(userId: string): Promise<AccountRecordsExport>;
  /** Image jobs of the account still queued or running. */
  abstract unfinishedImageJobs(userId: string): Promise<number>;
  /**
   * Deletes the account and what is personal about it, in one transaction: orders and the trial
   * claim stay under `pseudonym`; the mail waiting for `email` goes. Returns the image jobs whose
   * files are to be deleted.
   */
  abstract erase(userId: string, email: string, pseudonym: string): Promise<{ imageJobIds: string[] }>;
}
