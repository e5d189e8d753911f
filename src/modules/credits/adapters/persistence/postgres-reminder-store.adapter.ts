import { Injectable } from '@nestjs/common';
import type { LedgerEventKind } from 'src/contracts/billing';
import { SqlRunner } from 'src/platform/database/sql-runner';
import { ReminderStore, type ExpiryDue, type LowBalanceDue, type MailPreferences, type ReminderKind, type StatementLine } from '../../domain/reminder-store.port';

/** Only accounts that spent within this long are looked at for a low balance (the scan stays small). */
const RECENT_SPEND = `interval '2 days'`;

/** The reminders in PostgreSQL: set-based reads, and the primary key of credit_reminders as the once. */
@Injectable()
export class PostgresReminderStore extends ReminderStore {
  constructor(private readonly db: SqlRunner) {
    super();
  }

  async lowBalanceDue(threshold: number, limit: number): Promise<LowBalanceDue[]> {
    // The running balance of each recent spender's history: the last event that lifted it to the
    // threshold or above is the rise a reminder belongs to, so one is sent per fall below it.
    const rows = await this.db.query<{ user_id: string; email: string; balance: string; ref: string }>(
      `with spenders as (
         select distinct user_id from credit_charges where created_at > now() - ${RECENT_SPEND}
       ), running as (
         select e.user_id, e.id, sum(e.credits) over w as after, sum(e.credits) over w - e.credits as before
           from credit_events e join spenders s on s.user_id = e.user_id
         window w as (partition by e.user_id order by e.id)
       ), rises as (
         select user_id, max(id) as ref from running where after >= ? and before < ? group by user_id
       )
       select r.user_id, u.email, b.balance, r.ref::text as ref
         from rises r
         join users u on u.id = r.user_id
         cross join lateral (select coalesce(sum(remaining), 0) as balance from credit_lots l where l.user_id = r.user_id and l.expires_at > now()) b
        where b.balance < ?
          and exists (select 1 from credit_events s where s.user_id = r.user_id and s.kind = 'spend' and s.id > r.ref)
          and not exists (select 1 from credit_reminders c where c.user_id = r.user_id and c.kind = 'low_balance' and c.ref = r.ref::text)
          and coalesce((select p.low_balance from mail_preferences p where p.user_id = r.user_id), true)
        limit ?`,
      [threshold, threshold, threshold, limit],
    );
    return rows.map((row) => ({ userId: row.user_id, email: row.email, balance: Number(row.balance), ref: row.ref }));
  }

  async expiryDue(days: number, limit: number): Promise<ExpiryDue[]> {
    const rows = await this.db.query<{ id: string; user_id: string; email: string; remaining: number; expires_at: string | Date; description: string }>(
      `select l.id, l.user_id, u.email, l.remaining, l.expires_at, l.description
         from credit_lots l join users u on u.id = l.user_id
        where l.remaining > 0 and l.expires_at > now() and l.expires_at <= now() + make_interval(days => ?)
          and not exists (select 1 from credit_reminders c where c.user_id = l.user_id and c.kind = 'expiry' and c.ref = l.id::text)
          and coalesce((select p.expiry from mail_preferences p where p.user_id = l.user_id), true)
        order by l.expires_at limit ?`,
      [days, limit],
    );
    return rows.map((row) => ({ userId: row.user_id, email: row.email, lotId: row.id, remaining: row.remaining, expiresAt: new Date(row.expires_at), description: row.description }));
  }

  async claim(userId: string, kind: ReminderKind, ref: string): Promise<boolean> {
    const rows = await this.db.query(`insert into credit_reminders (user_id, kind, ref) values (?, ?, ?) on conflict do nothing returning ref`, [userId, kind, ref]);
    return rows.length > 0;
  }

  async unclaim(userId: string, kind: ReminderKind, ref: string): Promise<void> {
    await this.db.query(`delete from credit_reminders where user_id = ? and kind = ? and ref = ?`, [userId, kind, ref]);
  }

  async preferences(userId: string): Promise<MailPreferences> {
    const [row] = await this.db.query<{ low_balance: boolean; expiry: boolean }>(`select low_balance, expiry from mail_preferences where user_id = ?`, [userId]);
    return { lowBalance: row?.low_balance ?? true, expiry: row?.expiry ?? true };
  }

  /** A deleted account has no row to keep (a mail's unsubscribe link can outlive it): nothing is written, the defaults answer. */
  async setPreferences(userId: string, changes: Partial<MailPreferences>): Promise<MailPreferences> {
    const [row] = await this.db.query<{ low_balance: boolean; expiry: boolean }>(
      `insert into mail_preferences (user_id, low_balance, expiry)
       select ?, coalesce(?, true), coalesce(?, true) where exists (select 1 from users where id = ?)
       on conflict (user_id) do update set low_balance = coalesce(?, mail_preferences.low_balance), expiry = coalesce(?, mail_preferences.expiry), updated_at = now()
       returning low_balance, expiry`,
      [userId, changes.lowBalance ?? null, changes.expiry ?? null, userId, changes.lowBalance ?? null, changes.expiry ?? null],
    );
    return row ? { lowBalance: row.low_balance, expiry: row.expiry } : { lowBalance: changes.lowBalance ?? true, expiry: changes.expiry ?? true };
  }

  async statement(userId: string): Promise<StatementLine[]> {
    const rows = await this.db.query<{ kind: LedgerEventKind; credits: number; description: string; lot: string | null; created_at: string | Date; balance_after: string }>(
      `select e.kind, e.credits, e.description, e.created_at, sum(e.credits) over (order by e.id) as balance_after,
              coalesce(l.description, (select string_agg(cl.description, '; ' order by cl.expires_at) from credit_charge_parts p
                                        join credit_lots cl on cl.id = p.lot_id where p.charge_id = e.charge_id)) as lot
         from credit_events e left join credit_lots l on l.id = e.lot_id
        where e.user_id = ? order by e.id`,
      [userId],
    );
    return rows.map((row) => ({
      kind: row.kind,
      lot: row.lot ?? '',
      reason: row.description,
      credits: row.credits,
      balance_after: Number(row.balance_after),
      createdAt: new Date(row.created_at),
    }));
  }
}
