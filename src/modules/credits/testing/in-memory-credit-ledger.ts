import { randomUUID } from 'node:crypto';
import { EXPIRING_SOON_DAYS } from 'src/contracts/billing';
import { allocate } from '../domain/allocate';
import { CreditLedger, type Charge, type Clawback, type CreditLot, type GrantRequest, type HoldRequest, type LedgerEvent } from '../domain/credit-ledger.port';
import { ChargeKeyConflictError, InsufficientCreditsError, UnknownChargeError } from '../domain/credits.errors';

const DAY_MS = 86_400_000;

type LotRow = Omit<CreditLot, 'expiringSoon'> & { clawbackTarget: number; clawbackTaken: number };
type EventRow = Required<LedgerEvent> & { userId: string; lotId: string | null; chargeId: string | null };

/**
 * The credit ledger in memory, for unit and controller specs: the same rules as the PostgreSQL
 * ledger (one lot per sourceRef, soonest-expiring lots spent first, one charge per key, settled
 * once, balances never below zero, a failed job one line of the history) on plain arrays, with a
 * clock the spec moves (`now`). credit-ledger.contract.ts runs the same cases against both, so
 * this fake cannot drift; test/credits-ledger.int-spec.ts adds the SQL's concurrency.
 */
export class InMemoryCreditLedger extends CreditLedger {
  now = new Date('2026-06-01T12:00:00Z');
  readonly lotRows: LotRow[] = [];
  readonly charges: (Charge & { parts: { lotId: string; amount: number }[] })[] = [];
  readonly events: EventRow[] = [];
  /** Accounts confirmed (the trial backfill looks for them). */
  readonly confirmedUsers = new Set<string>();
  /** Account addresses (`<id>@example.com` unless set). */
  readonly emailsById = new Map<string, string>();
  /** The trial decided per account, against its normalised address. */
  readonly trialClaims = new Map<string, { address: string; granted: boolean }>();

  /** The state now, and how to go back to it (a database transaction that rolls back). */
  snapshot(): () => void {
    const lots = structuredClone(this.lotRows);
    const charges = structuredClone(this.charges);
    const events = structuredClone(this.events);
    return () => {
      this.lotRows.splice(0, this.lotRows.length, ...lots);
      this.charges.splice(0, this.charges.length, ...charges);
      this.events.splice(0, this.events.length, ...events);
    };
  }

  async grant(request: GrantRequest): Promise<{ granted: boolean }> {
    if (this.lotRows.some((lot) => lot.sourceRef === request.sourceRef)) return { granted: false };
    const lot = {
      id: randomUUID(),
      userId: request.userId,
      source: request.source,
      sourceRef: request.sourceRef,
      description: request.description,
      granted: request.credits,
      remaining: request.credits,
      expiresAt: new Date(this.now.getTime() + request.validityDays * DAY_MS),
      createdAt: this.now,
      clawbackTarget: 0,
      clawbackTaken: 0,
    };
    this.lotRows.push(lot);
    this.record(request.userId, 'grant', request.credits, request.description, { lotId: lot.id, actorId: request.actorId });
    return { granted: true };
  }

  async hold(request: HoldRequest): Promise<Charge> {
    const existing = this.charges.find((c) => c.idempotencyKey === request.idempotencyKey);
    if (existing) {
      if (existing.userId !== request.userId || existing.amount !== request.amount) throw new ChargeKeyConflictError();
      return this.copy(existing);
    }
    const lots = this.spendable(request.userId);
    const parts = allocate(lots, request.amount);
    if (!parts) throw new InsufficientCreditsError(lots.reduce((sum, lot) => sum + lot.remaining, 0), await this.hasPaid(request.userId));
    for (const part of parts) this.lot(part.lotId).remaining -= part.amount;
    const charge = {
      id: randomUUID(),
      userId: request.userId,
      idempotencyKey: request.idempotencyKey,
      amount: request.amount,
      state: 'held' as const,
      description: request.description,
      createdAt: this.now,
      settledAt: null,
      parts,
    };
    this.charges.push(charge);
    this.record(request.userId, 'spend', -request.amount, request.description, { chargeId: charge.id });
    return this.copy(charge);
  }

  async capture(idempotencyKey: string): Promise<Charge> {
    const charge = this.charge(idempotencyKey);
    if (charge.state === 'held') Object.assign(charge, { state: 'captured', settledAt: this.now });
    return this.copy(charge);
  }

  async release(idempotencyKey: string, description: string): Promise<Charge> {
    const charge = this.charge(idempotencyKey);
    if (charge.state !== 'held') return this.copy(charge);
    for (const part of charge.parts) this.lot(part.lotId).remaining += part.amount;
    Object.assign(charge, { state: 'released', settledAt: this.now });
    this.record(charge.userId, 'refund', charge.amount, description, { chargeId: charge.id });
    for (const part of charge.parts) {
      const lot = this.lot(part.lotId);
      // Given back to a lot that has expired meanwhile: they expire at once, in the history too.
      if (lot.expiresAt <= this.now) {
        this.expireReturned(lot, part.amount, 'Returned credits of an expired lot');
        continue;
      }
      const back = Math.min(part.amount, Math.max(lot.clawbackTarget - lot.clawbackTaken, 0));
      if (back > 0) {
        lot.remaining -= back;
        lot.clawbackTaken += back;
        this.record(charge.userId, 'revoke', -back, 'Returned credits of a refunded or disputed order', { lotId: lot.id });
      }
    }
    return this.copy(charge);
  }

  async clawBack(sourceRef: string, target: number, description: string, actorId?: string): Promise<Clawback | null> {
    const lot = this.lotRows.find((l) => l.sourceRef === sourceRef);
    if (!lot) return null;
    const wanted = Math.min(Math.max(Math.trunc(target), 0), lot.granted);
    const owed = wanted - lot.clawbackTaken;
    const change = owed > 0 ? 0 - Math.min(owed, lot.remaining) : owed < 0 ? -owed : 0;
    Object.assign(lot, { clawbackTarget: wanted, clawbackTaken: lot.clawbackTaken - change, remaining: lot.remaining + change });
    if (change < 0) {
      const short = owed + change;
      this.record(lot.userId, 'revoke', change, short > 0 ? `${description}: ${-change} of ${owed} credits taken back, ${short} already used` : description, { lotId: lot.id, actorId });
    } else if (change > 0) {
      this.record(lot.userId, 'restore', change, description, { lotId: lot.id, actorId });
      if (lot.expiresAt <= this.now) this.expireReturned(lot, change, 'Restored credits of an expired lot');
    }
    return { target: wanted, taken: lot.clawbackTaken, change };
  }

  async clawbacks(sourceRefs: string[]): Promise<Map<string, { target: number; taken: number }>> {
    return new Map(this.lotRows.filter((l) => sourceRefs.includes(l.sourceRef)).map((l) => [l.sourceRef, { target: l.clawbackTarget, taken: l.clawbackTaken }]));
  }

  async lotActivity(sourceRef: string): Promise<{ lot: CreditLot; events: LedgerEvent[] } | null> {
    const row = this.lotRows.find((l) => l.sourceRef === sourceRef);
    if (!row) return null;
    const events = this.events.filter((e) => e.lotId === row.id).map(({ id, kind, credits, description, createdAt, actorId }) => ({ id, kind, credits, description, createdAt, actorId }));
    return { lot: this.view(row), events };
  }

  async balance(userId: string): Promise<number> {
    return this.spendable(userId).reduce((sum, lot) => sum + lot.remaining, 0);
  }

  async lots(userId: string): Promise<CreditLot[]> {
    return this.spendable(userId).map((lot) => this.view(lot));
  }

  async hasPaid(userId: string): Promise<boolean> {
    return this.lotRows.some((lot) => lot.userId === userId && (lot.source === 'pack' || lot.source === 'donation'));
  }

  async history(userId: string, page: number, pageSize: number): Promise<{ items: LedgerEvent[]; total: number }> {
    // As the SQL shows it: a spend given back (a failed job) is one line, the give-back's, net 0.
    const mine = this.events.filter((e) => e.userId === userId);
    const spendOf = (chargeId: string | null) => mine.find((e) => e.kind === 'spend' && chargeId !== null && e.chargeId === chargeId);
    const shown = mine
      .filter((e) => !(e.kind === 'spend' && mine.some((r) => r.kind === 'refund' && r.chargeId === e.chargeId)))
      .map((e) => {
        const spend = e.kind === 'refund' ? spendOf(e.chargeId) : undefined;
        const line = { id: e.id, kind: e.kind, credits: e.credits, description: e.description, createdAt: e.createdAt };
        return spend ? { ...line, credits: e.credits + spend.credits, description: `${spend.description}: ${e.description}` } : line;
      })
      .reverse();
    return { items: shown.slice((page - 1) * pageSize, page * pageSize), total: shown.length };
  }

  async dailyUsage(userId: string, days: number): Promise<{ date: string; credits: number }[]> {
    const day = (d: Date) => d.toISOString().slice(0, 10);
    return Array.from({ length: days }, (_, i) => {
      const date = day(new Date(this.now.getTime() - (days - 1 - i) * DAY_MS));
      const credits = this.charges.filter((c) => c.userId === userId && c.state === 'captured' && day(c.createdAt) === date).reduce((sum, c) => sum + c.amount, 0);
      return { date, credits };
    });
  }

  async expireDue(limit: number): Promise<number> {
    const due = this.lotRows.filter((lot) => lot.expiresAt <= this.now && lot.remaining > 0).slice(0, limit);
    for (const lot of due) this.expireReturned(lot, lot.remaining, `Expired: ${lot.description}`.slice(0, 200));
    return due.length;
  }

  async usersAwaitingTrial(limit: number): Promise<{ id: string; email: string }[]> {
    return [...this.confirmedUsers]
      .filter((userId) => !this.trialClaims.has(userId))
      .slice(0, limit)
      .map((id) => ({ id, email: this.emailsById.get(id) ?? `${id}@example.com` }));
  }

  async emailOf(userId: string): Promise<string | null> {
    return this.emailsById.get(userId) ?? `${userId}@example.com`;
  }

  async grantTrial(request: GrantRequest, address: string): Promise<{ granted: boolean }> {
    if (this.trialClaims.has(request.userId)) return { granted: false };
    const taken = [...this.trialClaims.values()].some((claim) => claim.granted && claim.address === address);
    this.trialClaims.set(request.userId, { address, granted: !taken });
    return taken ? { granted: false } : this.grant(request);
  }

  async trialRefused(userId: string): Promise<boolean> {
    return this.trialClaims.get(userId)?.granted === false;
  }

  /** A user's unexpired lots with credits left, soonest to expire first. */
  private spendable(userId: string): LotRow[] {
    return this.lotRows
      .filter((lot) => lot.userId === userId && lot.expiresAt > this.now && lot.remaining > 0)
      .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime());
  }

  private view({ clawbackTarget: _t, clawbackTaken: _k, ...lot }: LotRow): CreditLot {
    return { ...lot, expiringSoon: lot.expiresAt.getTime() <= this.now.getTime() + EXPIRING_SOON_DAYS * DAY_MS };
  }

  private lot(id: string): LotRow {
    return this.lotRows.find((lot) => lot.id === id)!;
  }

  private charge(idempotencyKey: string) {
    const charge = this.charges.find((c) => c.idempotencyKey === idempotencyKey);
    if (!charge) throw new UnknownChargeError();
    return charge;
  }

  private copy({ parts: _, ...charge }: Charge & { parts: unknown }): Charge {
    return { ...charge };
  }

  private expireReturned(lot: LotRow, credits: number, description: string): void {
    lot.remaining -= credits;
    this.record(lot.userId, 'expire', -credits, description, { lotId: lot.id });
  }

  private record(userId: string, kind: LedgerEvent['kind'], credits: number, description: string, ref: { lotId?: string; chargeId?: string; actorId?: string }): void {
    this.events.push({ id: randomUUID(), userId, kind, credits, description, createdAt: this.now, lotId: ref.lotId ?? null, chargeId: ref.chargeId ?? null, actorId: ref.actorId ?? null });
  }
}
