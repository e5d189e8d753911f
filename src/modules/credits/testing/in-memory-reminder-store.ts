import { ReminderStore, type ExpiryDue, type LowBalanceDue, type MailPreferences, type ReminderKind, type StatementLine } from '../domain/reminder-store.port';
import type { InMemoryCreditLedger } from './in-memory-credit-ledger';

const DAY_MS = 86_400_000;
/** As the SQL: only accounts that spent within two days are looked at for a low balance. */
const RECENT_SPEND_MS = 2 * DAY_MS;

/**
 * The reminders in memory, for specs: the same reads as PostgresReminderStore over the in-memory
 * ledger's lots and history (its clock, `ledger.now`, is the store's), each (user, kind, ref)
 * claimed once, and both mails on for an account that never switched one. The SQL is proven by
 * test/ (the reminder and account e2e specs).
 */
export class InMemoryReminderStore extends ReminderStore {
  /** The reminders sent (credit_reminders), oldest first. */
  readonly claims: { userId: string; kind: ReminderKind; ref: string; createdAt: Date }[] = [];
  /** The switches of the accounts that changed one (mail_preferences). */
  readonly switches = new Map<string, MailPreferences>();

  constructor(private readonly ledger: InMemoryCreditLedger) {
    super();
  }

  async lowBalanceDue(threshold: number, limit: number): Promise<LowBalanceDue[]> {
    const now = this.ledger.now.getTime();
    const spenders = new Set(this.ledger.charges.filter((c) => c.createdAt.getTime() > now - RECENT_SPEND_MS).map((c) => c.userId));
    const due: LowBalanceDue[] = [];
    for (const userId of spenders) {
      const events = this.ledger.events.filter((e) => e.userId === userId);
      // The last event that lifted the running balance from below the threshold to it or above.
      let after = 0;
      let rise = -1;
      events.forEach((event, i) => {
        const before = after;
        after += event.credits;
        if (after >= threshold && before < threshold) rise = i;
      });
      if (rise < 0) continue;
      const ref = events[rise]!.id;
      const balance = await this.ledger.balance(userId);
      const spentSince = events.slice(rise + 1).some((e) => e.kind === 'spend');
      if (balance >= threshold || !spentSince || this.claimed(userId, 'low_balance', ref) || !this.current(userId).lowBalance) continue;
      due.push({ userId, email: await this.emailOf(userId), balance, ref });
    }
    return due.slice(0, limit);
  }

  async expiryDue(days: number, limit: number): Promise<ExpiryDue[]> {
    const now = this.ledger.now.getTime();
    const lots = this.ledger.lotRows
      .filter((lot) => lot.remaining > 0 && lot.expiresAt.getTime() > now && lot.expiresAt.getTime() <= now + days * DAY_MS)
      .filter((lot) => !this.claimed(lot.userId, 'expiry', lot.id) && this.current(lot.userId).expiry)
      .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())
      .slice(0, limit);
    return Promise.all(
      lots.map(async (lot) => ({ userId: lot.userId, email: await this.emailOf(lot.userId), lotId: lot.id, remaining: lot.remaining, expiresAt: lot.expiresAt, description: lot.description })),
    );
  }

  async claim(userId: string, kind: ReminderKind, ref: string): Promise<boolean> {
    if (this.claimed(userId, kind, ref)) return false;
    this.claims.push({ userId, kind, ref, createdAt: this.ledger.now });
    return true;
  }

  async unclaim(userId: string, kind: ReminderKind, ref: string): Promise<void> {
    const i = this.claims.findIndex((c) => c.userId === userId && c.kind === kind && c.ref === ref);
    if (i >= 0) this.claims.splice(i, 1);
  }

  async preferences(userId: string): Promise<MailPreferences> {
    return this.current(userId);
  }

  async setPreferences(userId: string, changes: Partial<MailPreferences>): Promise<MailPreferences> {
    const next = { ...this.current(userId), ...Object.fromEntries(Object.entries(changes).filter(([, on]) => on !== undefined)) };
    this.switches.set(userId, next);
    return { ...next };
  }

  async statement(userId: string): Promise<StatementLine[]> {
    let balance = 0;
    return this.ledger.events
      .filter((e) => e.userId === userId)
      .map((e) => {
        balance += e.credits;
        return { kind: e.kind, lot: this.lotOf(e), reason: e.description, credits: e.credits, balance_after: balance, createdAt: e.createdAt };
      });
  }

  /** The event's lot, or for a charge's events the lots it took from, soonest to expire first. */
  private lotOf(event: InMemoryCreditLedger['events'][number]): string {
    const lots = this.ledger.lotRows;
    if (event.lotId) return lots.find((lot) => lot.id === event.lotId)?.description ?? '';
    const parts = this.ledger.charges.find((c) => c.id === event.chargeId)?.parts ?? [];
    return parts
      .map((part) => lots.find((lot) => lot.id === part.lotId)!)
      .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())
      .map((lot) => lot.description)
      .join('; ');
  }

  private claimed(userId: string, kind: ReminderKind, ref: string): boolean {
    return this.claims.some((c) => c.userId === userId && c.kind === kind && c.ref === ref);
  }

  private current(userId: string): MailPreferences {
    return { lowBalance: true, expiry: true, ...this.switches.get(userId) };
  }

  private async emailOf(userId: string): Promise<string> {
    return (await this.ledger.emailOf(userId)) ?? `${userId}@example.com`;
  }
}
