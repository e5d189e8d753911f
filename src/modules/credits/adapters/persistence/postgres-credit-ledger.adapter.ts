import { Injectable } from '@nestjs/common';
import { SqlRunner } from 'src/platform/database/sql-runner';
import { EXPIRING_SOON_DAYS, type LedgerEventKind, type LotSource } from 'src/contracts/billing';
import { allocate } from '../../domain/allocate';
import { CreditLedger, type Charge, type Clawback, type ChargeState, type CreditLot, type GrantRequest, type HoldRequest, type LedgerEvent } from '../../domain/credit-ledger.port';
import { ChargeKeyConflictError, InsufficientCreditsError, UnknownChargeError } from '../../domain/credits.errors';

interface ChargeRow {
  id: string;
  user_id: string;
  idempotency_key: string;
  amount: number;
  state: ChargeState;
  description: string;
  // Raw rows: MikroORM's pg type parsers leave timestamps as strings.
  created_at: string | Date;
  settled_at: string | Date | null;
}

interface LotRow {
  id: string;
  user_id: string;
  source: LotSource;
  source_ref: string;
  description: string;
  granted: number;
  remaining: number;
  expires_at: string | Date;
  created_at: string | Date;
  expiring_soon: boolean;
}

/** Trial claims keep the normalised address hashed: the rule needs equality only, and a deleted account's claim outlives it. */
const ADDRESS_HASH = `encode(sha256(convert_to(?, 'UTF8')), 'hex')`;

const toLot = (row: LotRow): CreditLot => ({
  id: row.id,
  userId: row.user_id,
  source: row.source,
  sourceRef: row.source_ref,
  description: row.description,
  granted: row.granted,
  remaining: row.remaining,
  expiresAt: new Date(row.expires_at),
  createdAt: new Date(row.created_at),
  expiringSoon: row.expiring_soon,
});

const toCharge = (row: ChargeRow): Charge => ({
  id: row.id,
  userId: row.user_id,
  idempotencyKey: row.idempotency_key,
  amount: row.amount,
  state: row.state,
  description: row.description,
  createdAt: new Date(row.created_at),
  settledAt: row.settled_at === null ? null : new Date(row.settled_at),
});

/**
 * The ledger in PostgreSQL, in plain SQL: every change is one conditional UPDATE or a row lock
 * taken in a fixed order (a user's lots by expiry, then id), never an ORM read-modify-write, which
 * loses updates under concurrency. `now()` is the database clock. Each method runs in a transaction
 * of its own, or joins the caller's (MikroORM's transaction context); the global EntityManager's
 * `execute` runs inside whichever is current.
 */
@Injectable()
export class PostgresCreditLedger extends CreditLedger {
  constructor(private readonly db: SqlRunner) {
    super();
  }

  private sql<T>(query: string, params: unknown[] = []): Promise<T[]> {
    return this.db.query<T>(query, params);
  }

  private inTransaction<T>(work: () => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async grant(request: GrantRequest): Promise<{ granted: boolean }> {
    return this.inTransaction(async () => {
      const [lot] = await this.sql<{ id: string }>(
        `insert into credit_lots (user_id, source, source_ref, description, granted, remaining, expires_at)
         values (?, ?, ?, ?, ?, ?, now() + make_interval(days => ?))
         on conflict (source_ref) do nothing
         returning id`,
        [request.userId, request.source, request.sourceRef, request.description, request.credits, request.credits, request.validityDays],
      );
      if (!lot) return { granted: false };
      await this.event(request.userId, 'grant', request.credits, request.description, { lotId: lot.id, actorId: request.actorId });
      return { granted: true };
    });
  }

  async hold(request: HoldRequest): Promise<Charge> {
    return this.inTransaction(async () => {
      // The key first: of two concurrent holds with one key, the second waits here for the first
      // to commit (or roll back), then finds its charge.
      const [created] = await this.sql<ChargeRow>(
        `insert into credit_charges (user_id, idempotency_key, amount, state, description)
         values (?, ?, ?, 'held', ?)
         on conflict (idempotency_key) do nothing
         returning *`,
        [request.userId, request.idempotencyKey, request.amount, request.description],
      );
      if (!created) {
        const existing = await this.chargeByKey(request.idempotencyKey);
        if (existing.userId !== request.userId || existing.amount !== request.amount) throw new ChargeKeyConflictError();
        return existing;
      }
      // The user's spendable lots, locked in one fixed order so concurrent spends queue up here.
      const lots = await this.sql<{ id: string; remaining: number }>(
        `select id, remaining from credit_lots
          where user_id = ? and remaining > 0 and expires_at > now()
          order by expires_at, id
          for update`,
        [request.userId],
      );
      const parts = allocate(lots, request.amount);
      if (!parts) {
        const balance = lots.reduce((sum, lot) => sum + lot.remaining, 0);
        throw new InsufficientCreditsError(balance, await this.hasPaid(request.userId));
      }
      for (const part of parts) {
        await this.sql(`update credit_lots set remaining = remaining - ? where id = ?`, [part.amount, part.lotId]);
        await this.sql(`insert into credit_charge_parts (charge_id, lot_id, amount) values (?, ?, ?)`, [created.id, part.lotId, part.amount]);
      }
      await this.event(request.userId, 'spend', -request.amount, request.description, { chargeId: created.id });
      return toCharge(created);
    });
  }

  async capture(idempotencyKey: string): Promise<Charge> {
    const [captured] = await this.sql<ChargeRow>(
      `update credit_charges set state = 'captured', settled_at = now()
        where idempotency_key = ? and state = 'held'
        returning *`,
      [idempotencyKey],
    );
    return captured ? toCharge(captured) : this.chargeByKey(idempotencyKey);
  }

  async release(idempotencyKey: string, description: string): Promise<Charge> {
    return this.inTransaction(async () => {
      // One conditional update decides which of concurrent releases gives the credits back.
      const [released] = await this.sql<ChargeRow>(
        `update credit_charges set state = 'released', settled_at = now()
          where idempotency_key = ? and state = 'held'
          returning *`,
        [idempotencyKey],
      );
      if (!released) return this.chargeByKey(idempotencyKey);
      const parts = await this.sql<{ lot_id: string; amount: number; expired: boolean; owed: number }>(
        `select p.lot_id, p.amount, l.expires_at <= now() as expired, l.clawback_target - l.clawback_taken as owed
           from credit_charge_parts p join credit_lots l on l.id = p.lot_id
          where p.charge_id = ?
          order by l.expires_at, l.id
          for update of l`,
        [released.id],
      );
      for (const part of parts) {
        await this.sql(`update credit_lots set remaining = remaining + ? where id = ?`, [part.amount, part.lot_id]);
      }
      await this.event(released.user_id, 'refund', released.amount, description, { chargeId: released.id });
      for (const part of parts) {
        // Credits given back to a lot that has expired meanwhile expire at once, in the history too.
        if (part.expired) {
          await this.expireReturned(released.user_id, part.lot_id, part.amount, 'Returned credits of an expired lot');
          continue;
        }
        // A lot whose order was refunded or disputed after the hold: its returned credits go where the rest went.
        const back = Math.min(part.amount, Math.max(part.owed, 0));
        if (back > 0) {
          await this.sql(`update credit_lots set remaining = remaining - ?, clawback_taken = clawback_taken + ? where id = ?`, [back, back, part.lot_id]);
          await this.event(released.user_id, 'revoke', -back, 'Returned credits of a refunded or disputed order', { lotId: part.lot_id });
        }
      }
      return toCharge(released);
    });
  }

  async clawBack(sourceRef: string, target: number, description: string, actorId?: string): Promise<Clawback | null> {
    return this.inTransaction(async () => {
      const [lot] = await this.sql<{ id: string; user_id: string; granted: number; remaining: number; clawback_taken: number; expired: boolean }>(
        `select id, user_id, granted, remaining, clawback_taken, expires_at <= now() as expired from credit_lots where source_ref = ? for update`,
        [sourceRef],
      );
      if (!lot) return null;
      const wanted = Math.min(Math.max(Math.trunc(target), 0), lot.granted);
      const owed = wanted - lot.clawback_taken;
      // Owed: what is unspent now; the rest when it comes back. Over-taken: all of it given back.
      const change = owed > 0 ? 0 - Math.min(owed, lot.remaining) : owed < 0 ? -owed : 0;
      await this.sql(`update credit_lots set clawback_target = ?, clawback_taken = clawback_taken - ?, remaining = remaining + ? where id = ?`, [wanted, change, change, lot.id]);
      if (change < 0) {
        const short = owed + change;
        const text = short > 0 ? `${description}: ${-change} of ${owed} credits taken back, ${short} already used` : description;
        await this.event(lot.user_id, 'revoke', change, text, { lotId: lot.id, actorId });
      } else if (change > 0) {
        await this.event(lot.user_id, 'restore', change, description, { lotId: lot.id, actorId });
        // Given back to a lot that has expired meanwhile: they expire at once, in the history too.
        if (lot.expired) await this.expireReturned(lot.user_id, lot.id, change, 'Restored credits of an expired lot');
      }
      return { target: wanted, taken: lot.clawback_taken - change, change };
    });
  }

  async clawbacks(sourceRefs: string[]): Promise<Map<string, { target: number; taken: number }>> {
    if (!sourceRefs.length) return new Map();
    const rows = await this.sql<{ source_ref: string; clawback_target: number; clawback_taken: number }>(
      `select source_ref, clawback_target, clawback_taken from credit_lots where source_ref in (${sourceRefs.map(() => '?').join(', ')})`,
      sourceRefs,
    );
    return new Map(rows.map((row) => [row.source_ref, { target: row.clawback_target, taken: row.clawback_taken }]));
  }

  async lotActivity(sourceRef: string): Promise<{ lot: CreditLot; events: LedgerEvent[] } | null> {
    const [row] = await this.sql<LotRow>(
      `select *, expires_at <= now() + make_interval(days => ?) as expiring_soon from credit_lots where source_ref = ?`,
      [EXPIRING_SOON_DAYS, sourceRef],
    );
    if (!row) return null;
    const events = await this.sql<{ id: string; kind: LedgerEventKind; credits: number; description: string; created_at: string | Date; actor_id: string | null }>(
      `select id, kind, credits, description, created_at, actor_id from credit_events where lot_id = ? order by id`,
      [row.id],
    );
    return {
      lot: toLot(row),
      events: events.map((event) => ({ id: String(event.id), kind: event.kind, credits: event.credits, description: event.description, createdAt: new Date(event.created_at), actorId: event.actor_id })),
    };
  }

  async balance(userId: string): Promise<number> {
    const [row] = await this.sql<{ balance: string }>(
      `select coalesce(sum(remaining), 0) as balance from credit_lots where user_id = ? and expires_at > now()`,
      [userId],
    );
    return Number(row?.balance ?? 0);
  }

  async lots(userId: string): Promise<CreditLot[]> {
    const rows = await this.sql<LotRow>(
      `select *, expires_at <= now() + make_interval(days => ?) as expiring_soon
         from credit_lots
        where user_id = ? and remaining > 0 and expires_at > now()
        order by expires_at, id`,
      [EXPIRING_SOON_DAYS, userId],
    );
    return rows.map(toLot);
  }

  async hasPaid(userId: string): Promise<boolean> {
    // A lot of a pack or a donation exists only once its order was paid (refunded later or not).
    const rows = await this.sql(`select 1 from credit_lots where user_id = ? and source in ('pack', 'donation') limit 1`, [userId]);
    return rows.length > 0;
  }

  async history(userId: string, page: number, pageSize: number): Promise<{ items: LedgerEvent[]; total: number }> {
    // A spend whose charge was given back (a failed job) is one line, the give-back's, net 0: "spent
    // -1" and "given back +1" side by side read as two events for one thing that did not happen.
    const shown = `from credit_events e
      left join credit_events s on e.kind = 'refund' and s.charge_id = e.charge_id and s.kind = 'spend'
     where e.user_id = ?
       and not (e.kind = 'spend' and e.charge_id is not null
                and exists (select 1 from credit_events r where r.charge_id = e.charge_id and r.kind = 'refund'))`;
    const rows = await this.sql<{ id: string; kind: LedgerEventKind; credits: number; description: string; created_at: string | Date; total: string }>(
      `select e.id, e.kind, e.credits + coalesce(s.credits, 0) as credits,
              coalesce(s.description || ': ' || e.description, e.description) as description,
              e.created_at, count(*) over () as total
         ${shown}
        order by e.id desc limit ? offset ?`,
      [userId, pageSize, (page - 1) * pageSize],
    );
    const total = rows[0] ? Number(rows[0].total) : Number((await this.sql<{ n: string }>(`select count(*) as n ${shown}`, [userId]))[0]?.n ?? 0);
    return {
      items: rows.map((row) => ({ id: String(row.id), kind: row.kind, credits: row.credits, description: row.description, createdAt: new Date(row.created_at) })),
      total,
    };
  }

  async dailyUsage(userId: string, days: number): Promise<{ date: string; credits: number }[]> {
    const rows = await this.sql<{ date: string; credits: string }>(
      `select to_char(day, 'YYYY-MM-DD') as date, coalesce(sum(c.amount), 0) as credits
         from generate_series((now() at time zone 'utc')::date - (?::int - 1), (now() at time zone 'utc')::date, interval '1 day') as day
         left join credit_charges c
           on c.user_id = ? and c.state = 'captured' and (c.created_at at time zone 'utc')::date = day::date
        group by day order by day`,
      [days, userId],
    );
    return rows.map((row) => ({ date: row.date, credits: Number(row.credits) }));
  }

  async expireDue(limit: number): Promise<number> {
    return this.inTransaction(async () => {
      // Locked with SKIP LOCKED: two housekeepers (two workers) never record one expiry twice.
      const rows = await this.sql<{ id: string }>(
        `with due as (
           select id, user_id, remaining, description from credit_lots
            where expires_at <= now() and remaining > 0
            order by expires_at limit ?
            for update skip locked
         ), emptied as (
           update credit_lots l set remaining = 0, expiry_recorded_at = now()
             from due where l.id = due.id
           returning due.id, due.user_id, due.remaining, due.description
         )
         insert into credit_events (user_id, kind, credits, lot_id, description)
         select user_id, 'expire', -remaining, id, left('Expired: ' || description, 200) from emptied
         returning id`,
        [limit],
      );
      return rows.length;
    });
  }

  async usersAwaitingTrial(limit: number): Promise<{ id: string; email: string }[]> {
    // Reads the accounts table directly: a trial is owed to every confirmed account (auth's rule,
    // applied here in one query instead of paging accounts through the auth module).
    return this.sql<{ id: string; email: string }>(
      `select u.id, u.email from users u
        where u.confirmed_at is not null
          and not exists (select 1 from trial_claims c where c.user_id = u.id)
        order by u.confirmed_at limit ?`,
      [limit],
    );
  }

  async emailOf(userId: string): Promise<string | null> {
    const [row] = await this.sql<{ email: string }>(`select email from users where id = ?`, [userId]);
    return row?.email ?? null;
  }

  async grantTrial(request: GrantRequest, address: string): Promise<{ granted: boolean }> {
    return this.inTransaction(async () => {
      // The partial unique index on granted addresses decides between two accounts of one address.
      const [claimed] = await this.sql<{ user_id: string }>(
        `insert into trial_claims (user_id, address, granted) values (?, ${ADDRESS_HASH}, true) on conflict do nothing returning user_id`,
        [request.userId, address],
      );
      if (claimed) return this.grant(request);
      await this.sql(`insert into trial_claims (user_id, address, granted) values (?, ${ADDRESS_HASH}, false) on conflict do nothing`, [request.userId, address]);
      return { granted: false };
    });
  }

  async trialRefused(userId: string): Promise<boolean> {
    const rows = await this.sql(`select 1 from trial_claims where user_id = ? and not granted`, [userId]);
    return rows.length > 0;
  }

  private async expireReturned(userId: string, lotId: string, credits: number, description: string): Promise<void> {
    await this.sql(`update credit_lots set remaining = remaining - ?, expiry_recorded_at = now() where id = ?`, [credits, lotId]);
    await this.event(userId, 'expire', -credits, description, { lotId });
  }

  private async chargeByKey(idempotencyKey: string): Promise<Charge> {
    const [row] = await this.sql<ChargeRow>(`select * from credit_charges where idempotency_key = ?`, [idempotencyKey]);
    if (!row) throw new UnknownChargeError();
    return toCharge(row);
  }

  private async event(
    userId: string,
    kind: LedgerEventKind,
    credits: number,
    description: string,
    ref: { lotId?: string; chargeId?: string; actorId?: string },
  ): Promise<void> {
    await this.sql(
      `insert into credit_events (user_id, kind, credits, lot_id, charge_id, actor_id, description) values (?, ?, ?, ?, ?, ?, ?)`,
      [userId, kind, credits, ref.lotId ?? null, ref.chargeId ?? null, ref.actorId ?? null, description.slice(0, 200)],
    );
  }
}
