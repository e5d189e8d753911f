import type { CreditExportRow } from 'src/contracts/billing';

export const REMINDER_KINDS = ['low_balance', 'expiry'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

/** An account whose balance fell below the threshold after a spend: `ref` names the rise above it that this reminder is for. */
export interface LowBalanceDue {
  userId: string;
  email: string;
  balance: number;
  ref: string;
}

/** A lot with credits left that expires within the reminder's days. */
export interface ExpiryDue {
  userId: string;
  email: string;
  lotId: string;
  remaining: number;
  expiresAt: Date;
  description: string;
}

export interface MailPreferences {
  lowBalance: boolean;
  expiry: boolean;
}

/** One line of the credit statement (the export): the change, its lot, and the balance after it. */
export type StatementLine = Omit<CreditExportRow, 'date'> & { createdAt: Date };

/**
 * The reminders' reads and their once-only record, the mail switches, and the credit statement.
 * `claim` is the once: a reminder is sent by whoever inserts its (user, kind, ref) first.
 */
export abstract class ReminderStore {
  abstract lowBalanceDue(threshold: number, limit: number): Promise<LowBalanceDue[]>;
  abstract expiryDue(days: number, limit: number): Promise<ExpiryDue[]>;
  /** Records the reminder; false when it was sent already (by this process or another). */
  abstract claim(userId: string, kind: ReminderKind, ref: string): Promise<boolean>;
  /** Forgets a claim whose mail could not be stored, so the next run sends it. */
  abstract unclaim(userId: string, kind: ReminderKind, ref: string): Promise<void>;
  abstract preferences(userId: string): Promise<MailPreferences>;
  abstract setPreferences(userId: string, changes: Partial<MailPreferences>): Promise<MailPreferences>;
  /** Every change of the user's credits, oldest first, with the lot and the balance after it. */
  abstract statement(userId: string): Promise<StatementLine[]>;
}
