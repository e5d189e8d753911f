import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { KEPT_AFTER_DELETION, type AccountExport } from 'src/contracts/account-export';
import type { AccountView } from 'src/contracts/account';
import { AuthService, UserRepository, type AuthContext } from 'src/modules/auth';
import { CreditRemindersService } from 'src/modules/credits';
import { ImageToolService } from 'src/modules/image-tool';
import { MailOutbox } from 'src/platform/mail/mail-outbox.port';
import { layoutMessage } from 'src/platform/mail/mail-layout';
import { AccountRecords } from '../domain/account-records.port';
import { ImageJobRunningError } from '../domain/account.errors';

/** The account page's reads, "Download my data" (GDPR article 20) and "Delete my account" (article 17). */
@Injectable()
export class AccountService {
  private readonly logger = new Logger('Account');

  constructor(
    private readonly records: AccountRecords,
    private readonly users: UserRepository,
    private readonly auth: AuthService,
    private readonly reminders: CreditRemindersService,
    private readonly images: ImageToolService,
    private readonly mail: MailOutbox,
    private readonly config: AppConfig,
  ) {}

  async view({ user, session }: AuthContext): Promise<AccountView> {
    const current = (await this.users.findById(user.id)) ?? user;
    return {
      email: current.email,
      created_at: current.createdAt.toISOString(),
      sign_in_methods: { password: current.passwordHash !== null, google: current.googleSubject !== null },
      signed_in_at: session.createdAt.toISOString(),
      kept_after_deletion: KEPT_AFTER_DELETION,
    };
  }

  async export(userId: string): Promise<AccountExport> {
    const user = await this.users.findById(userId);
    if (!user) throw new Error(`No account ${userId}`);
    const [records, preferences] = await Promise.all([this.records.export(userId), this.reminders.preferences(userId)]);
    return {
      exported_at: new Date().toISOString(),
      kept_after_deletion: KEPT_AFTER_DELETION,
      account: {
        email: user.email,
        created_at: user.createdAt.toISOString(),
        confirmed_at: user.confirmedAt?.toISOString() ?? null,
        sign_in_methods: { password: user.passwordHash !== null, google: user.googleSubject !== null },
      },
      ...records,
      mail_preferences: { low_balance: preferences.lowBalance, expiry: preferences.expiry },
      guide_reports_and_votes: 'Guide reports and helpfulness votes are anonymous: they are counted per browser, never per account, so none is linked to this account.',
    };
  }

  /**
   * Deletes the account after proving its owner (the password, or a sign-in within 15 minutes),
   * never while one of its image jobs runs (its result would land in no account). Orders stay
   * under a random id; the files go after the rows; a confirmation is mailed to the address.
   */
  async delete(context: AuthContext, password?: string): Promise<{ deleted: true; kept: string }> {
    const { user, session } = context;
    await this.auth.confirmOwner(user, session, password);
    const running = await this.records.unfinishedImageJobs(user.id);
    if (running) throw new ImageJobRunningError(running);
    const { imageJobIds } = await this.records.erase(user.id, user.email, randomUUID());
    try {
      await this.images.deleteFilesOf(imageJobIds);
    } catch (error) {
      // The rows are gone; the housekeeping's retention deletes files nobody can reach any more.
      this.logger.warn({ err: error }, `Files of a deleted account's image jobs were not all deleted`);
    }
    await this.mail.send(
      layoutMessage({ siteName: this.config.public.siteName, to: user.email }, `Your ${this.config.public.siteName} account is deleted`, [
        `The account of ${user.email} was deleted at your request, with its sessions, progress, credits and images.`,
        KEPT_AFTER_DELETION,
        'You can sign up again with this address at any time: it will be a new account.',
      ]),
    );
    this.logger.log(`Account ${user.id} deleted (${imageJobIds.length} image job(s))`);
    return { deleted: true, kept: KEPT_AFTER_DELETION };
  }
}
