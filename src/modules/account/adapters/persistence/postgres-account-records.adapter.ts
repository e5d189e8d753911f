import { Injectable } from '@nestjs/common';
import { SqlRunner } from 'src/platform/database/sql-runner';
import { AccountRecords, type AccountRecordsExport } from '../../domain/account-records.port';

type Stamp = string | Date;
const iso = (value: Stamp) => new Date(value).toISOString();
const isoOrNull = (value: Stamp | null) => (value === null ? null : iso(value));

/**
 * The account's rows in every module's tables, in plain SQL (read for the export, erased for a
 * deletion). A table that gains a user's id or address must be added here: test/account.e2e-spec.ts
 * scans every column of the schema after a deletion and fails on any it missed.
 */
@Injectable()
export class PostgresAccountRecords extends AccountRecords {
  constructor(private readonly db: SqlRunner) {
    super();
  }

  private sql<T>(query: string, params: unknown[]): Promise<T[]> {
    return this.db.query<T>(query, params);
  }

  async export(userId: string): Promise<AccountRecordsExport> {
    const [sessions, progress, lots, history, orders, refunds, jobs, reminders] = await Promise.all([
      this.sql<{ created_at: Stamp; last_used_at: Stamp; expires_at: Stamp; revoked_at: Stamp | null }>(
        `select created_at, last_used_at, expires_at, revoked_at from sessions where user_id = ? order by created_at`,
        [userId],
      ),
      this.sql<{ level_number: number; state: string; changed_at: Stamp }>(`select level_number, state, changed_at from account_progress where user_id = ? order by level_number`, [userId]),
      this.sql<{ source: string; description: string; granted: number; remaining: number; expires_at: Stamp; created_at: Stamp }>(
        `select source, description, granted, remaining, expires_at, created_at from credit_lots where user_id = ? order by created_at, id`,
        [userId],
      ),
      this.sql<{ kind: string; credits: number; description: string; created_at: Stamp }>(`select kind, credits, description, created_at from credit_events where user_id = ? order by id`, [userId]),
      this.sql<{ id: string; number: string; kind: string; description: string; status: string; amount_cents: number; refunded_cents: number; credits: number; payment_method: string | null; created_at: Stamp; paid_at: Stamp | null }>(
        `select id, number, kind, description, status, amount_cents, refunded_cents, credits, payment_method, created_at, paid_at from orders where user_id = ? order by created_at`,
        [userId],
      ),
      this.sql<{ order_id: string; amount_cents: number; created_at: Stamp }>(
        `select r.order_id, r.amount_cents, r.created_at from order_refunds r join orders o on o.id = r.order_id where o.user_id = ? order by r.created_at`,
        [userId],
      ),
      this.sql<{ id: string; conversion: string; source: string; source_url: string | null; status: string; created_at: Stamp; finished_at: Stamp | null; files_deleted_at: Stamp | null }>(
        `select id, conversion, source, source_url, status, created_at, finished_at, files_deleted_at from image_jobs where user_id = ? order by created_at`,
        [userId],
      ),
      this.sql<{ kind: string; created_at: Stamp }>(`select kind, created_at from credit_reminders where user_id = ? order by created_at`, [userId]),
    ]);
    return {
      sessions: sessions.map((s) => ({ created_at: iso(s.created_at), last_used_at: iso(s.last_used_at), expires_at: iso(s.expires_at), revoked_at: isoOrNull(s.revoked_at) })),
      progress: progress.map((p) => ({ level: p.level_number, state: p.state, changed_at: iso(p.changed_at) })),
      credits: {
        lots: lots.map((l) => ({ ...l, expires_at: iso(l.expires_at), created_at: iso(l.created_at) })),
        history: history.map((e) => ({ ...e, created_at: iso(e.created_at) })),
      },
      orders: orders.map(({ id, ...o }) => ({
        ...o,
        created_at: iso(o.created_at),
        paid_at: isoOrNull(o.paid_at),
        refunds: refunds.filter((r) => r.order_id === id).map((r) => ({ amount_cents: r.amount_cents, created_at: iso(r.created_at) })),
      })),
      image_jobs: jobs.map(({ files_deleted_at, ...j }) => ({
        ...j,
        created_at: iso(j.created_at),
        finished_at: isoOrNull(j.finished_at),
        files: j.status === 'succeeded' && files_deleted_at === null ? ['preview', 'result', 'thumbnail'].map((file) => `/api/v1/images/${j.id}/${file}`) : [],
      })),
      reminders_sent: reminders.map((r) => ({ kind: r.kind, created_at: iso(r.created_at) })),
    };
  }

  async unfinishedImageJobs(userId: string): Promise<number> {
    const [row] = await this.sql<{ n: string }>(`select count(*) as n from image_jobs where user_id = ? and status in ('queued', 'running')`, [userId]);
    return Number(row?.n ?? 0);
  }

  async erase(userId: string, email: string, pseudonym: string): Promise<{ imageJobIds: string[] }> {
    return this.db.transaction(async () => {
      // The account row first, locked: a sign-in or a purchase racing the deletion waits, then finds no account.
      await this.sql(`select id from users where id = ? for update`, [userId]);
      const jobs = await this.sql<{ id: string }>(`select id from image_jobs where user_id = ?`, [userId]);
      // Kept by law, without the person: orders (and their refunds and events) under the pseudonym.
      await this.sql(`update orders set user_id = ? where user_id = ?`, [pseudonym, userId]);
      // The trial rule's memory of the address (already a hash) outlives the account.
      await this.sql(`update trial_claims set user_id = ? where user_id = ?`, [pseudonym, userId]);
      await this.sql(`delete from sessions where user_id = ?`, [userId]);
      await this.sql(`delete from one_time_tokens where user_id = ?`, [userId]);
      await this.sql(`delete from mail_outbox where lower("to") = lower(?)`, [email]);
      await this.sql(`update error_reports set user_email = null where lower(user_email) = lower(?)`, [email]);
      // Lots, charges, events, reminders, switches, progress and image jobs go with the account (on delete cascade);
      // an admin's name on other accounts' records becomes null (on delete set null).
      await this.sql(`delete from users where id = ?`, [userId]);
      return { imageJobIds: jobs.map((job) => job.id) };
    });
  }
}
