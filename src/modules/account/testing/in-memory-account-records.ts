import type { InMemorySessionRepository } from 'src/modules/auth/testing/in-memory-session-repository';
import type { InMemoryUserRepository } from 'src/modules/auth/testing/in-memory-user-repository';
import type { InMemoryOrderRepository } from 'src/modules/billing/testing/in-memory-order-repository';
import type { InMemoryCreditLedger } from 'src/modules/credits/testing/in-memory-credit-ledger';
import type { InMemoryReminderStore } from 'src/modules/credits/testing/in-memory-reminder-store';
import type { InMemoryImageJobRepository } from 'src/modules/image-tool/testing/in-memory-image-job-repository';
import type { InMemoryAccountProgressRepository } from 'src/modules/progress/testing/in-memory-account-progress-repository';
import type { RecordingMailOutbox } from 'src/platform/mail/testing/recording-mail-outbox';
import { AccountRecords, type AccountRecordsExport } from '../domain/account-records.port';

/** The other modules' in-memory fakes whose rows an account has, as PostgresAccountRecords reads their tables. */
export interface AccountRecordSources {
  users: InMemoryUserRepository;
  sessions: InMemorySessionRepository;
  progress: InMemoryAccountProgressRepository;
  ledger: InMemoryCreditLedger;
  reminders: InMemoryReminderStore;
  orders: InMemoryOrderRepository;
  jobs: InMemoryImageJobRepository;
  outbox: RecordingMailOutbox;
}

const iso = (at: Date | number) => new Date(at).toISOString();
const isoOrNull = (at: Date | null) => (at === null ? null : iso(at));
const byCreated = <T extends { createdAt: Date }>(rows: T[]) => [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());

/**
 * An account's records across the other modules' fakes, for specs: the export reads what
 * PostgresAccountRecords selects, and erase does what its transaction does, with no await between
 * its steps (all or nothing, as the transaction): orders and the trial claim move to the pseudonym,
 * the mail waiting for the address goes, everything else of the account goes with it. Not
 * modelled: emailed link tokens and error reports (their fakes are not shared with the specs).
 */
export class InMemoryAccountRecords extends AccountRecords {
  constructor(private readonly from: AccountRecordSources) {
    super();
  }

  async export(userId: string): Promise<AccountRecordsExport> {
    const { sessions, progress, ledger, reminders, orders, jobs } = this.from;
    const levels = progress.rows.get(userId)?.levels ?? {};
    return {
      sessions: byCreated(sessions.ofUser(userId)).map((s) => ({ created_at: iso(s.createdAt), last_used_at: iso(s.lastUsedAt), expires_at: iso(s.expiresAt), revoked_at: isoOrNull(s.revokedAt) })),
      progress: Object.entries(levels)
        .map(([level, entry]) => ({ level: Number(level), state: entry.state, changed_at: iso(entry.at) }))
        .sort((a, b) => a.level - b.level),
      credits: {
        lots: byCreated(ledger.lotRows.filter((l) => l.userId === userId)).map((l) => ({
          source: l.source,
          description: l.description,
          granted: l.granted,
          remaining: l.remaining,
          expires_at: iso(l.expiresAt),
          created_at: iso(l.createdAt),
        })),
        history: ledger.events.filter((e) => e.userId === userId).map((e) => ({ kind: e.kind, credits: e.credits, description: e.description, created_at: iso(e.createdAt) })),
      },
      orders: byCreated(orders.rows.filter((o) => o.userId === userId)).map((o) => ({
        number: o.number,
        kind: o.kind,
        description: o.description,
        status: o.status,
        amount_cents: o.amountCents,
        refunded_cents: o.refundedCents,
        credits: o.credits,
        payment_method: o.paymentMethod,
        created_at: iso(o.createdAt),
        paid_at: isoOrNull(o.paidAt),
        refunds: byCreated(orders.refundRows.filter((r) => r.orderId === o.id)).map((r) => ({ amount_cents: r.amountCents, created_at: iso(r.createdAt) })),
      })),
      image_jobs: byCreated(jobs.rows.filter((j) => j.userId === userId)).map((j) => ({
        id: j.id,
        conversion: j.conversion,
        source: j.source,
        source_url: j.sourceUrl,
        status: j.status,
        created_at: iso(j.createdAt),
        finished_at: isoOrNull(j.finishedAt),
        files: j.status === 'succeeded' && j.filesDeletedAt === null ? ['preview', 'result', 'thumbnail'].map((file) => `/api/v1/images/${j.id}/${file}`) : [],
      })),
      reminders_sent: byCreated(reminders.claims.filter((c) => c.userId === userId)).map((c) => ({ kind: c.kind, created_at: iso(c.createdAt) })),
    };
  }

  async unfinishedImageJobs(userId: string): Promise<number> {
    return this.from.jobs.rows.filter((j) => j.userId === userId && (j.status === 'queued' || j.status === 'running')).length;
  }

  async erase(userId: string, email: string, pseudonym: string): Promise<{ imageJobIds: string[] }> {
    const { users, sessions, progress, ledger, reminders, orders, jobs, outbox } = this.from;
    const mine = <T extends { userId: string }>(rows: T[]) => rows.filter((row) => row.userId === userId);
    const removeMine = <T extends { userId: string }>(rows: T[]) => rows.splice(0, rows.length, ...rows.filter((row) => row.userId !== userId));
    const imageJobIds = mine(jobs.rows).map((j) => j.id);
    // Kept by law, without the person: the orders (their refunds follow by order id) and the trial claim.
    for (const order of mine(orders.rows)) order.userId = pseudonym;
    const trial = ledger.trialClaims.get(userId);
    if (trial) ledger.trialClaims.set(pseudonym, trial);
    ledger.trialClaims.delete(userId);
    for (const [id, session] of sessions.rows) if (session.userId === userId) sessions.rows.delete(id);
    outbox.sent.splice(0, outbox.sent.length, ...outbox.sent.filter((m) => m.to.toLowerCase() !== email.toLowerCase()));
    // What the database deletes with the account (on delete cascade).
    removeMine(ledger.lotRows);
    removeMine(ledger.charges);
    removeMine(ledger.events);
    removeMine(reminders.claims);
    reminders.switches.delete(userId);
    progress.rows.delete(userId);
    removeMine(jobs.rows);
    ledger.emailsById.delete(userId);
    ledger.confirmedUsers.delete(userId);
    users.rows.delete(userId);
    return { imageJobIds };
  }
}
