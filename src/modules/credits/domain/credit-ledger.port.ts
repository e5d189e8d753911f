import type { LedgerEventKind, LotSource } from 'src/contracts/billing';

/** Credits granted together: a trial, a pack, a donation or an admin's grant. */
export interface CreditLot {
  id: string;
  userId: string;
  source: LotSource;
  /** Unique per grant ("trial:<user>", "order:<order>"): the same grant can never happen twice. */
  sourceRef: string;
  description: string;
  granted: number;
  remaining: number;
  expiresAt: Date;
  createdAt: Date;
  /** Expires within EXPIRING_SOON_DAYS, by the database clock. */
  expiringSoon: boolean;
}

export type ChargeState = 'held' | 'captured' | 'released';

/** A spend: held when work is accepted, then captured (it succeeded) or released (credits back). */
export interface Charge {
  id: string;
  userId: string;
  idempotencyKey: string;
  amount: number;
  state: ChargeState;
  description: string;
  createdAt: Date;
  settledAt: Date | null;
}

export interface LedgerEvent {
  id: string;
  kind: LedgerEventKind;
  credits: number;
  description: string;
  createdAt: Date;
  /** The admin who made the change, when one did. */
  actorId?: string | null;
}

/** A lot's clawback after a change: the target, what was actually taken back in all, and the balance's change (negative: taken, positive: given back). */
export interface Clawback {
  target: number;
  taken: number;
  change: number;
}

export interface GrantRequest {
  userId: string;
  source: LotSource;
  sourceRef: string;
  credits: number;
  validityDays: number;
  description: string;
  /** The admin granting it (the audit trail); unset for the system's grants. */
  actorId?: string;
}

export interface HoldRequest {
  userId: string;
  amount: number;
  /** The caller's key for this spend (e.g. "image-job:<id>"): a replay returns the same charge. */
  idempotencyKey: string;
  /** Shown in the user's history. */
  description: string;
}

/**
 * The credit ledger: the only way credits are granted, spent and given back. Every method is safe
 * under any concurrency (conditional updates and row locks in PostgreSQL) and joins the caller's
 * database transaction when there is one. Balances never go below zero; no credit is spent twice.
 */
export abstract class CreditLedger {
  /** Grants a lot, once per sourceRef; false when that grant already happened. */
  abstract grant(request: GrantRequest): Promise<{ granted: boolean }>;

  /**
   * Takes `amount` credits from the user's unexpired lots, soonest to expire first. Throws
   * InsufficientCreditsError when the balance is short (nothing is taken). The same key again
   * returns the charge it made (whatever its state now), charging nothing more.
   */
  abstract hold(request: HoldRequest): Promise<Charge>;

  /** Marks a held charge captured (the work succeeded). Once: a settled charge is returned as it is. */
  abstract capture(idempotencyKey: string): Promise<Charge>;

  /** Gives a held charge's credits back to the lots they came from. Once: a settled charge is returned as it is. */
  abstract release(idempotencyKey: string, description: string): Promise<Charge>;

  /**
   * Sets how many credits of the lot of `sourceRef` are to be taken back in all: a refund's share,
   * a dispute (the whole lot), or less again after a won dispute or a failed refund. What is owed
   * is taken from the unspent credits; what was taken beyond the target is given back ('restore').
   * Credits owed but spent or held are taken when they come back (a failed job's release), so a
   * refunded order's credits never become spendable again. The same target again changes nothing.
   * `actorId`: the admin behind it (an admin refund), for the audit trail. Null for no such lot.
   */
  abstract clawBack(sourceRef: string, target: number, description: string, actorId?: string): Promise<Clawback | null>;

  /** For each of these sourceRefs that has a lot: the credits it is to give back and has given back. */
  abstract clawbacks(sourceRefs: string[]): Promise<Map<string, { target: number; taken: number }>>;

  /** The lot of `sourceRef` (an order's) and its history, oldest first; null for no such lot. */
  abstract lotActivity(sourceRef: string): Promise<{ lot: CreditLot; events: LedgerEvent[] } | null>;

  /** Spendable credits: the unexpired lots' remaining, by the database clock. */
  abstract balance(userId: string): Promise<number>;

  /** Unexpired lots with credits left, soonest to expire first. */
  abstract lots(userId: string): Promise<CreditLot[]>;

  /** Whether the user ever paid for credits (a pack or a donation): decides which low-credit offer they see. */
  abstract hasPaid(userId: string): Promise<boolean>;

  /** The history, newest first. */
  abstract history(userId: string, page: number, pageSize: number): Promise<{ items: LedgerEvent[]; total: number }>;

  /** Captured credits per UTC day, the last `days` days (oldest first, today included). */
  abstract dailyUsage(userId: string, days: number): Promise<{ date: string; credits: number }[]>;

  /** Records the expiry of lots past their date (their credits leave the balance in the history); returns how many. */
  abstract expireDue(limit: number): Promise<number>;

  /** Confirmed accounts whose trial was not decided yet, with their address (the trial backfill). */
  abstract usersAwaitingTrial(limit: number): Promise<{ id: string; email: string }[]>;

  /** The account's address (its trial is counted against it), or null when there is no such account. */
  abstract emailOf(userId: string): Promise<string | null>;

  /**
   * Grants the trial lot unless `address` already had a trial with another account; decides once
   * per account, atomically (two accounts of one address confirmed at once: one gets it).
   */
  abstract grantTrial(request: GrantRequest, address: string): Promise<{ granted: boolean }>;

  /** Whether the account was refused the trial because its address already had one. */
  abstract trialRefused(userId: string): Promise<boolean>;
}
