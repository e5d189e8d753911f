import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { TRIAL_DAYS, type CreditsView, type LedgerEventView, type Paged } from 'src/contracts/billing';
import { CreditLedger } from '../domain/credit-ledger.port';
import { trialAddress } from '../domain/trial-address';

const HISTORY_PAGE_SIZE = 20;
const USAGE_DAYS = 30;
export const TRIAL_REF_PREFIX = 'trial:';

/** What people see of their credits, the trial, and the admin's grants. Spending goes through CreditLedger. */
@Injectable()
export class CreditsService {
  private readonly logger = new Logger('Credits');

  constructor(
    private readonly ledger: CreditLedger,
    private readonly config: AppConfig,
  ) {}

  async view(userId: string): Promise<CreditsView> {
    const [lots, hasPaid, dailyUsage, trialRefused] = await Promise.all([
      this.ledger.lots(userId),
      this.ledger.hasPaid(userId),
      this.ledger.dailyUsage(userId, USAGE_DAYS),
      this.ledger.trialRefused(userId),
    ]);
    return {
      balance: lots.reduce((sum, lot) => sum + lot.remaining, 0),
      lots: lots.map((lot) => ({
        id: lot.id,
        source: lot.source,
        granted: lot.granted,
        remaining: lot.remaining,
        expires_at: lot.expiresAt.toISOString(),
        created_at: lot.createdAt.toISOString(),
        expiring_soon: lot.expiringSoon,
      })),
      has_paid: hasPaid,
      daily_usage: dailyUsage,
      trial_refused: trialRefused,
    };
  }

  async history(userId: string, page: number): Promise<Paged<LedgerEventView>> {
    const { items, total } = await this.ledger.history(userId, page, HISTORY_PAGE_SIZE);
    return {
      items: items.map((event) => ({
        id: event.id,
        kind: event.kind,
        credits: event.credits,
        description: event.description,
        created_at: event.createdAt.toISOString(),
      })),
      page,
      pages: Math.max(1, Math.ceil(total / HISTORY_PAGE_SIZE)),
      total,
    };
  }

  /**
   * The free trial: TRIAL_CREDITS valid 14 days, once per normalised address ever (trialAddress:
   * `ann+1@` and `ann+2@` are one mailbox), while payments are on. `email` saves a lookup.
   */
  async grantTrial(userId: string, email?: string): Promise<boolean> {
    const credits = this.config.payments.trialCredits;
    if (!this.config.payments.enabled || credits <= 0) return false;
    const address = email ?? (await this.ledger.emailOf(userId));
    if (!address) return false;
    const request = {
      userId,
      source: 'trial' as const,
      sourceRef: `${TRIAL_REF_PREFIX}${userId}`,
      credits,
      validityDays: TRIAL_DAYS,
      description: `Free trial: ${credits} credits for ${TRIAL_DAYS} days`,
    };
    const { granted } = await this.ledger.grantTrial(request, trialAddress(address));
    this.logger.log(granted ? `Trial of ${credits} credits granted to user ${userId}` : `No trial for user ${userId}: its address already had one`);
    return granted;
  }

  /** Credits from an admin, with the reason in the user's history. The reference makes a retried request grant once. */
  async grantByAdmin(input: { userId: string; credits: number; validityDays: number; reason: string; reference: string; adminId: string }): Promise<boolean> {
    const { granted } = await this.ledger.grant({
      userId: input.userId,
      source: 'admin',
      // Per account: one key reused for two accounts grants both, a retry for one account grants once.
      sourceRef: `admin:${input.userId}:${input.reference}`,
      credits: input.credits,
      validityDays: input.validityDays,
      description: input.reason,
      actorId: input.adminId,
    });
    return granted;
  }

  /**
   * Housekeeping: records the expiry of lots past their date, and grants the trial to confirmed
   * accounts that lack it (its grant at confirmation failed, or payments were turned on later).
   */
  async housekeeping(): Promise<{ expired: number; trials: number }> {
    let expired = 0;
    for (let batch; (batch = await this.ledger.expireDue(500)) > 0; ) expired += batch;
    let trials = 0;
    if (this.config.payments.enabled && this.config.payments.trialCredits > 0) {
      for (const user of await this.ledger.usersAwaitingTrial(500)) {
        if (await this.grantTrial(user.id, user.email)) trials++;
      }
    }
    if (expired || trials) this.logger.log(`Housekeeping: ${expired} lot(s) expired, ${trials} trial(s) granted`);
    return { expired, trials };
  }
}
