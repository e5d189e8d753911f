import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import type { PasswordResetInput, SignInInput, SignUpInput } from 'src/contracts/auth.schema';
import { MailOutbox } from 'src/platform/mail/mail-outbox.port';
import type { JobData } from 'src/platform/queue/jobs';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import { QueueUnavailableError } from 'src/platform/queue/queue.errors';
import {
  InvalidCredentialsError,
  InvalidLinkError,
  LoginDisabledError,
  PasswordSignInPausedError,
  ReauthenticationRequiredError,
  TooManyAttemptsError,
  UnconfirmedAccountError,
} from '../domain/auth.errors';
import { SIGN_IN_THROTTLE, signInDelayMs } from '../domain/sign-in-throttle';
import { TOKEN_LIFETIME_MS, type TokenPurpose } from '../domain/one-time-token';
import { AttemptLimiter } from '../domain/attempt-limiter.port';
import { OneTimeTokenRepository } from '../domain/one-time-token-repository.port';
import { PasswordHasher } from '../domain/password-hasher.port';
import { SessionRepository } from '../domain/session-repository.port';
import { UserRepository } from '../domain/user-repository.port';
import { hashSecret, linkSecret, looksLikeSecret, newSecret } from '../domain/secrets';
import type { Session } from '../domain/session';
import { normalizeEmail, type User } from '../domain/user';
import { AccountEvents } from './account-events.service';
import { accountExistsEmail, confirmationEmail, passwordResetEmail, signInLinkEmail } from './emails';

/**
 * Per-address budgets for the mailing actions, on top of the per-IP limits of the routes. Keyed by
 * action and address whether or not it has an account, so the answers never differ between the two.
 * Sign-in has its own rule (SIGN_IN_THROTTLE): it must not let strangers lock an owner out.
 */
const MAIL_LIMIT = { max: 3, windowMs: 60 * 60_000 } as const;

/**
 * The ways in for an owner (sign-in link, password reset) are never refused: anyone may ask for
 * them, so a cap that answered 429 would let a stranger lock the owner out. Instead, while a link is
 * live, a request mails that same link again, at most `max` times per window; with the budget spent
 * the live link (already in the mailbox) is all there is, and once it has expired a new one is mailed.
 * At most max + lifetime windows mails an hour per address: 4 + 4 sign-in links, 4 + 1 resets.
 */
const LINK_MAILS = { max: 4, windowMs: 60 * 60_000 } as const;

/** A session this young proves its owner without the password (an emailed sign-in link, Google): for deleting the account. */
export const FRESH_SIGN_IN_MS = 15 * 60_000;

export interface SignedIn {
  user: User;
  /** The bearer token: given to the client once, stored only hashed. */
  token: string;
  session: Session;
}

/** Sign-up, confirmation, sign-in and out, password reset, Google sign-in (SessionAuthenticator checks sessions). */
@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');

  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly tokens: OneTimeTokenRepository,
    private readonly hasher: PasswordHasher,
    private readonly limiter: AttemptLimiter,
    private readonly mail: MailOutbox,
    private readonly config: AppConfig,
    private readonly events: AccountEvents,
    private readonly jobs: JobQueue,
  ) {}

  private clock(): Date {
    return new Date();
  }

  /** Accounts are on (HAS_LOGIN): confirming an address needs no more. */
  private requireLogin(): void {
    if (!this.config.public.settings.has_login) throw new LoginDisabledError();
  }

  /** Email sign-in is on too (EMAIL_LOGIN): every password and emailed-link action asks. */
  private requireEmailLogin(): void {
    const { has_login, email_login } = this.config.public.settings;
    if (!has_login || !email_login) throw new LoginDisabledError();
  }

  /** The sign-in slowdown's wait (a method so a unit test can see the delays without waiting them). */
  protected wait(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  /**
   * Creates an unconfirmed account and mails its confirmation link. The answer is the same when the
   * address already has an account (its owner gets an email saying so), so sign-up reveals nothing.
   */
  async signUp(input: SignUpInput): Promise<void> {
    this.requireEmailLogin();
    const email = normalizeEmail(input.email);
    await this.limit(`sign-up:${email}`, MAIL_LIMIT);
    // Hashed before the lookup, used or not: a taken address must not answer 30 ms sooner.
    const passwordHash = await this.hasher.hash(input.password);
    const existing = await this.users.findByEmail(email);
    if (existing) return this.remindExisting(existing);
    const user = await this.users.create({ email, passwordHash, confirmedAt: null, googleSubject: null });
    // A concurrent sign-up with the same address won the race: treat it as existing.
    if (!user) {
      const winner = await this.users.findByEmail(email);
      return winner ? this.remindExisting(winner) : undefined;
    }
    await this.sendLink(user, 'account_confirm');
  }

  /** The Resend button: a new link for an unconfirmed account; silently nothing otherwise. */
  async resendConfirmation(rawEmail: string): Promise<void> {
    this.requireEmailLogin();
    const email = normalizeEmail(rawEmail);
    await this.limit(`resend:${email}`, MAIL_LIMIT);
    await this.queueLinkRequest(email, 'account_confirm', true);
  }

  /** Confirms the address behind a confirmation link: once, before it expires. */
  async confirmEmail(token: string): Promise<void> {
    this.requireLogin();
    const userId = await this.consume(token, 'account_confirm');
    await this.users.update(userId, { confirmedAt: this.clock() });
    await this.events.confirmed(userId);
  }

  /**
   * Checks a password. `clientIp` keys the hard limit (this client, this address); failures from
   * everywhere slow the address down (SIGN_IN_THROTTLE), and past AUTH_SIGN_IN_FAILURES_PER_HOUR
   * pause password checks for it; its owner is never locked out: an emailed link still signs them in.
   */
  async signIn(input: SignInInput, clientIp: string): Promise<SignedIn> {
    this.requireEmailLogin();
    const email = normalizeEmail(input.email);
    const clientKey = `sign-in:${email}:${clientIp}`;
    const addressKey = `sign-in-failures:${email}`;
    const hourlyKey = `sign-in-hourly-failures:${email}`;
    const { failuresPerHour, maxDelayMs } = this.config.auth.signIn;
    await this.limit(clientKey, SIGN_IN_THROTTLE.perClient);
    const delay = signInDelayMs((await this.limiter.peek(addressKey)).count, maxDelayMs);
    if (delay > 0) await this.wait(delay);
    // One check at a time per address across every web process: the hourly cap is read and counted
    // by one attempt at a time, so 25 parallel guesses cannot all pass it together.
    return this.limiter.exclusive(`sign-in:${email}`, async () => {
      const hourly = await this.limiter.peek(hourlyKey);
      // Known or not, the address answers the same (unknown ones are counted too).
      if (hourly.count >= failuresPerHour) throw new PasswordSignInPausedError(hourly.retryAfterSeconds);
      const user = await this.users.findByEmail(email);
      // Unknown address and wrong password cost the same argon2 verify and give the same error.
      const valid = user?.passwordHash ? await this.hasher.verify(user.passwordHash, input.password) : await this.dummyVerify(input.password);
      if (!user || !valid) {
        await this.limiter.hit(addressKey, Number.MAX_SAFE_INTEGER, SIGN_IN_THROTTLE.perAddress.windowMs);
        await this.limiter.hit(hourlyKey, Number.MAX_SAFE_INTEGER, SIGN_IN_THROTTLE.hourlyWindowMs);
        throw new InvalidCredentialsError();
      }
      await this.limiter.clear(clientKey);
      if (!user.confirmedAt) throw new UnconfirmedAccountError(user.email);
      return this.startSession(user);
    });
  }

  /**
   * Mails a one-time sign-in link to a confirmed account (the way in while password sign-in is
   * paused); the same answer whether the address has an account or not.
   */
  async requestSignInLink(rawEmail: string): Promise<void> {
    this.requireEmailLogin();
    const email = normalizeEmail(rawEmail);
    const budget = await this.limiter.hit(`sign-in-link:${email}`, LINK_MAILS.max, LINK_MAILS.windowMs);
    await this.queueLinkRequest(email, 'sign_in_link', budget.allowed);
  }

  /** Signs in with an emailed sign-in link: once, within 15 minutes, for a confirmed account. */
  async signInWithLink(token: string): Promise<SignedIn> {
    this.requireEmailLogin();
    const userId = await this.consume(token, 'sign_in_link');
    const user = await this.users.findById(userId);
    if (!user?.confirmedAt) throw new InvalidLinkError();
    return this.startSession(user);
  }

  /**
   * Proves the owner before an irreversible change: the password when given (counted against the
   * sign-in limits), else a session signed in within FRESH_SIGN_IN_MS.
   */
  async confirmOwner(user: User, session: Session, password?: string): Promise<void> {
    if (password !== undefined) {
      const current = await this.users.findById(user.id);
      if (current?.passwordHash && (await this.hasher.verify(current.passwordHash, password))) return;
      await this.limit(`reauth:${user.id}`, MAIL_LIMIT);
      throw new ReauthenticationRequiredError();
    }
    if (this.clock().getTime() - session.createdAt.getTime() <= FRESH_SIGN_IN_MS) return;
    throw new ReauthenticationRequiredError();
  }

  /** A new password from the account page: proven with the current one (or a fresh sign-in without one); every other session ends. */
  async changePassword(user: User, session: Session, input: { current?: string; password: string }): Promise<void> {
    await this.confirmOwner(user, session, input.current);
    await this.users.update(user.id, { passwordHash: await this.hasher.hash(input.password) });
    const revoked = await this.sessions.revokeAllOf(user.id, this.clock(), session.id);
    this.logger.log(`Password changed for user ${user.id}; ${revoked} other session(s) revoked`);
  }

  private async dummyVerify(password: string): Promise<false> {
    await this.hasher.verifyDummy(password);
    return false;
  }

  /** Revokes the session of this token at once (one conditional update); false when it was already revoked or unknown. */
  async signOut(token: string): Promise<boolean> {
    if (!looksLikeSecret(token)) return false;
    return this.sessions.revokeByTokenHash(hashSecret(token), this.clock());
  }

  /** Mails a reset link when the address has an account; the same answer either way. */
  async requestPasswordReset(rawEmail: string): Promise<void> {
    this.requireEmailLogin();
    const email = normalizeEmail(rawEmail);
    const budget = await this.limiter.hit(`reset:${email}`, LINK_MAILS.max, LINK_MAILS.windowMs);
    await this.queueLinkRequest(email, 'password_reset', budget.allowed);
  }

  /**
   * The request path of the link requests: one lookup and one 'auth.link-request' job, whether the
   * address has an account or not (timing told them apart: 21 ms against 9 ms when the token and the
   * mail were written here). The job (deliverLinkRequest) does the rest where jobs run.
   */
  private async queueLinkRequest(email: string, purpose: JobData<'auth.link-request'>['purpose'], resend: boolean): Promise<void> {
    const user = await this.users.findByEmail(email);
    const request = { purpose, userId: user?.id ?? null, resend };
    try {
      // One job per account and purpose at a time: while one waits or runs, another request adds
      // nothing (two run side by side would each find no live link and mail two); one that failed for
      // good is run again rather than kept in the way.
      await this.jobs.enqueue('auth.link-request', request, user ? { jobId: `link-${purpose}-${user.id}`, retryFailed: true } : {});
    } catch (error) {
      if (!(error instanceof QueueUnavailableError)) throw error;
      // Redis away: done here rather than lost (the outbox keeps the mail); only then does timing differ.
      this.logger.warn('A link request is handled in the request: the queue is unavailable');
      await this.deliverLinkRequest(request);
    }
  }

  /** The 'auth.link-request' job: mails the link the request asked for, when the account is one it is for. */
  async deliverLinkRequest({ purpose, userId, resend }: JobData<'auth.link-request'>): Promise<void> {
    const user = userId ? await this.users.findById(userId) : null;
    if (!user) return;
    if (purpose === 'account_confirm') {
      if (!user.confirmedAt) await this.sendLink(user, 'account_confirm');
      return;
    }
    if (purpose === 'sign_in_link' && !user.confirmedAt) return;
    await this.mailOwnerLink(user, purpose, resend);
  }

  /**
   * Sets a new password with a reset link. Every session of the user ends (whoever had the old
   * password is out), and the link does not sign anyone in. It also proves the address.
   */
  async resetPassword(input: PasswordResetInput): Promise<void> {
    this.requireEmailLogin();
    const userId = await this.consume(input.token, 'password_reset');
    const user = await this.users.findById(userId);
    if (!user) throw new InvalidLinkError();
    const now = this.clock();
    await this.users.update(userId, { passwordHash: await this.hasher.hash(input.password), confirmedAt: user.confirmedAt ?? now });
    if (!user.confirmedAt) await this.events.confirmed(userId);
    const revoked = await this.sessions.revokeAllOf(userId, now);
    // The reset proved the mailbox: a pause of password checks (a stranger's guesses) ends for the new password.
    await this.limiter.clear(`sign-in-hourly-failures:${user.email}`);
    await this.limiter.clear(`sign-in-failures:${user.email}`);
    this.logger.log(`Password reset for user ${userId}; ${revoked} session(s) revoked`);
  }

  /**
   * Signs in with a Google account: by its subject if linked, else by a verified email (linking
   * the account), else a new confirmed account. An unverified Google email never takes over an account.
   */
  async signInWithGoogle(profile: { subject: string; email?: string; emailVerified: boolean }): Promise<SignedIn> {
    const linked = await this.users.findByGoogleSubject(profile.subject);
    if (linked) return this.startSession(linked);
    if (!profile.email || !profile.emailVerified) throw new InvalidLinkError();
    const email = normalizeEmail(profile.email);
    const now = this.clock();
    const existing = await this.users.findByEmail(email);
    if (existing) {
      // An unconfirmed account's password was never proven to belong to the address's owner:
      // someone may have signed up with it first. Google proves the owner, so that password goes
      // (the owner can set one through a reset).
      const changes = existing.confirmedAt
        ? { googleSubject: profile.subject }
        : { googleSubject: profile.subject, confirmedAt: now, passwordHash: null };
      await this.users.update(existing.id, changes);
      if (!existing.confirmedAt) await this.events.confirmed(existing.id);
      return this.startSession({ ...existing, ...changes });
    }
    const inserted = await this.users.create({ email, passwordHash: null, confirmedAt: now, googleSubject: profile.subject });
    if (inserted) await this.events.confirmed(inserted.id);
    const created = inserted ?? (await this.users.findByEmail(email));
    if (!created) throw new InvalidLinkError();
    return this.startSession(created);
  }

  private async startSession(user: User): Promise<SignedIn> {
    const token = newSecret();
    const now = this.clock();
    const session = await this.sessions.create(
      { userId: user.id, tokenHash: hashSecret(token), expiresAt: new Date(now.getTime() + this.config.auth.sessionMaxMs) },
      now,
    );
    return { user, token, session };
  }

  private async remindExisting(user: User): Promise<void> {
    if (!user.confirmedAt) return this.sendLink(user, 'account_confirm');
    const site = this.config.http.publicUrl;
    await this.mail.send(
      accountExistsEmail({ siteName: this.config.public.siteName, to: user.email }, `${site}/`, `${site}/auth/forgot_password`),
    );
  }

  /**
   * LINK_MAILS: mails the live link of this purpose again while `withinBudget`, else nothing (it is
   * in the mailbox already); a new link when none is live. Never refuses: the owner always has a link.
   */
  private async mailOwnerLink(user: User, purpose: 'sign_in_link' | 'password_reset', withinBudget: boolean): Promise<void> {
    const now = this.clock();
    const live = await this.tokens.findLive(user.id, purpose, now);
    if (!live) return this.sendLink(user, purpose);
    if (!withinBudget) return;
    const token = linkSecret(this.config.auth.secret, live.id);
    // Made by a process with another AUTH_SECRET (unset: random per process): a new link instead.
    if (hashSecret(token) !== live.tokenHash) return this.sendLink(user, purpose);
    await this.mail.send(this.linkEmail(user, purpose, token));
  }

  private async sendLink(user: User, purpose: TokenPurpose): Promise<void> {
    const id = randomUUID();
    const token = linkSecret(this.config.auth.secret, id);
    const now = this.clock();
    await this.tokens.create(
      { id, userId: user.id, purpose, tokenHash: hashSecret(token), expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_MS[purpose]) },
      now,
    );
    await this.mail.send(this.linkEmail(user, purpose, token));
  }

  private linkEmail(user: User, purpose: TokenPurpose, token: string) {
    const site = this.config.http.publicUrl;
    const ctx = { siteName: this.config.public.siteName, to: user.email };
    return purpose === 'account_confirm'
        ? confirmationEmail(ctx, `${site}/auth/confirm#token=${token}`)
        : purpose === 'sign_in_link'
          ? signInLinkEmail(ctx, `${site}/auth/sign_in_link#token=${token}`)
          : passwordResetEmail(ctx, `${site}/auth/password_reset#token=${token}`);
  }

  private async consume(token: string, purpose: TokenPurpose): Promise<string> {
    if (!looksLikeSecret(token)) throw new InvalidLinkError();
    const userId = await this.tokens.consume(hashSecret(token), purpose, this.clock());
    if (!userId) throw new InvalidLinkError();
    return userId;
  }

  private async limit(key: string, { max, windowMs }: { max: number; windowMs: number }): Promise<void> {
    const result = await this.limiter.hit(key, max, windowMs);
    if (!result.allowed) throw new TooManyAttemptsError(result.retryAfterSeconds);
  }
}
