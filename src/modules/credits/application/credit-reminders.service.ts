import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import type { CreditExportRow, ExportView } from 'src/contracts/billing';
import { formatInZone, toCsv } from 'src/platform/csv/csv';
import type { MailMessage } from 'src/platform/mail/mail-message';
import { MailOutbox } from 'src/platform/mail/mail-outbox.port';
import { InvalidUnsubscribeLinkError } from '../domain/credits.errors';
import { ReminderStore, type MailPreferences, type ReminderKind } from '../domain/reminder-store.port';
import { readUnsubscribeToken, unsubscribeToken } from '../domain/unsubscribe-token';
import { expiryEmail, lowBalanceEmail } from './reminder-emails';

/** Reminders looked at per run and kind; the rest wait for the next run. */
const BATCH = 200;

/**
 * The reminder mails (low balance after a spend, a lot about to expire), their switches and their
 * one-click unsubscribe; and the credit statement export. Each reminder is claimed in
 * credit_reminders before its mail is stored, so two workers, or a retried run, send it once.
 */
@Injectable()
export class CreditRemindersService {
  private readonly logger = new Logger('Credits');

  constructor(
    private readonly store: ReminderStore,
    private readonly mail: MailOutbox,
    private readonly config: AppConfig,
  ) {}

  /** One run (every minute where the jobs run): the reminders due, each once. Returns how many were sent. */
  async run(): Promise<{ lowBalance: number; expiry: number }> {
    const { lowBalanceCredits, expiryDays } = this.config.payments.reminders;
    let lowBalance = 0;
    let expiry = 0;
    if (lowBalanceCredits > 0) {
      for (const due of await this.store.lowBalanceDue(lowBalanceCredits, BATCH)) {
        if (await this.sendOnce(due.userId, 'low_balance', due.ref, (ctx) => lowBalanceEmail({ ...ctx, to: due.email }, due.balance))) lowBalance++;
      }
    }
    if (expiryDays > 0) {
      for (const due of await this.store.expiryDue(expiryDays, BATCH)) {
        if (await this.sendOnce(due.userId, 'expiry', due.lotId, (ctx) => expiryEmail({ ...ctx, to: due.email }, due))) expiry++;
      }
    }
    if (lowBalance || expiry) this.logger.log(`Reminders: ${lowBalance} low balance, ${expiry} expiry`);
    return { lowBalance, expiry };
  }

  preferences(userId: string): Promise<MailPreferences> {
    return this.store.preferences(userId);
  }

  setPreferences(userId: string, changes: Partial<MailPreferences>): Promise<MailPreferences> {
    return this.store.setPreferences(userId, changes);
  }

  /** The one-click unsubscribe (no sign-in): the signed token names the account and the kind. */
  async unsubscribe(token: string): Promise<{ kind: ReminderKind }> {
    const found = readUnsubscribeToken(this.config.auth.secret, token);
    if (!found) throw new InvalidUnsubscribeLinkError();
    await this.store.setPreferences(found.userId, found.kind === 'low_balance' ? { lowBalance: false } : { expiry: false });
    return { kind: found.kind };
  }

  /** Every change of the user's credits, oldest first, dates in `timeZone`, with totals. */
  async statement(userId: string, timeZone: string): Promise<ExportView<CreditExportRow>> {
    const lines = await this.store.statement(userId);
    const sum = (kinds: string[]) => lines.filter((line) => kinds.includes(line.kind)).reduce((total, line) => total + line.credits, 0);
    return {
      time_zone: timeZone,
      rows: lines.map(({ createdAt, ...line }) => ({ date: formatInZone(createdAt, timeZone), ...line })),
      totals: {
        granted: sum(['grant', 'restore']),
        // Taken as 0 - x: a negated empty sum would be -0.
        spent: 0 - sum(['spend', 'refund']),
        taken_back: 0 - sum(['revoke']),
        expired: 0 - sum(['expire']),
        balance: lines.at(-1)?.balance_after ?? 0,
      },
    };
  }

  private async sendOnce(userId: string, kind: ReminderKind, ref: string, compose: (ctx: { siteName: string; to: string; site: string; unsubscribe: string; unsubscribePage: string }) => MailMessage): Promise<boolean> {
    if (!(await this.store.claim(userId, kind, ref))) return false;
    const site = this.config.http.publicUrl;
    const token = unsubscribeToken(this.config.auth.secret, userId, kind);
    try {
      await this.mail.send(
        compose({
          siteName: this.config.public.siteName,
          to: '',
          site,
          unsubscribe: `${site}/api/v1/reminders/unsubscribe?token=${token}`,
          unsubscribePage: `${site}/account/unsubscribe#token=${token}`,
        }),
      );
      return true;
    } catch (error) {
      // Not stored: the claim goes, so the next run sends it.
      await this.store.unclaim(userId, kind, ref);
      throw error;
    }
  }
}

/** The credit statement as CSV: a header naming the time zone, the rows, then a totals row. */
export function statementCsv(data: ExportView<CreditExportRow>): string {
  const { totals } = data;
  return toCsv(
    [`Date (${data.time_zone})`, 'Kind', 'Lot', 'Reason', 'Credits', 'Balance after'],
    [
      ...data.rows.map((row) => [row.date, row.kind, row.lot, row.reason, row.credits, row.balance_after]),
      ['Total', '', '', `granted ${totals.granted}, spent ${totals.spent}, taken back ${totals.taken_back}, expired ${totals.expired}`, Number(totals.granted) - Number(totals.spent) - Number(totals.taken_back) - Number(totals.expired), totals.balance!],
    ],
  );
}
