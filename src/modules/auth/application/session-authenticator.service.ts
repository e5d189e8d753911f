import { Injectable } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { SessionRepository } from '../domain/session-repository.port';
import { UserRepository } from '../domain/user-repository.port';
import { hashSecret, looksLikeSecret } from '../domain/secrets';
import { isSessionLive, TOUCH_AFTER_MS, type Session } from '../domain/session';
import { normalizeEmail, type User } from '../domain/user';

/**
 * Who is asking: the session behind a token and the admin role. Needs only the database and the
 * config, so every module that guards a route can use it without mail, queue or Redis.
 */
@Injectable()
export class SessionAuthenticator {
  /** The local try-out's admin, once found (the first confirmed account stays the first). */
  private firstAccountId?: string;

  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly config: AppConfig,
  ) {}

  /** The user and session of a bearer token, or null when it is unknown, revoked or expired. */
  async authenticate(token: string, now = new Date()): Promise<{ user: User; session: Session } | null> {
    if (!looksLikeSecret(token)) return null;
    const session = await this.sessions.findByTokenHash(hashSecret(token));
    if (!session || !isSessionLive(session, now, this.config.auth.sessionIdleMs)) return null;
    const user = await this.users.findById(session.userId);
    if (!user) return null;
    if (now.getTime() - session.lastUsedAt.getTime() > TOUCH_AFTER_MS) await this.sessions.touch(session.id, now);
    return { user, session };
  }

  /** Accounts listed in ADMIN_EMAILS; in the local try-out also the first account confirmed on this database. */
  async isAdmin(user: User): Promise<boolean> {
    if (this.config.auth.adminEmails.has(user.email)) return true;
    if (!this.config.auth.firstAccountIsAdmin || !user.confirmedAt) return false;
    this.firstAccountId ??= (await this.users.firstConfirmedId()) ?? undefined;
    return this.firstAccountId === user.id;
  }

  /** Addresses of these accounts (admin screens); unknown ids are left out. */
  emailsOf(ids: string[]): Promise<Map<string, string>> {
    return this.users.emailsOf(ids);
  }

  /** The id of the account with this address, if any (admin tools). */
  async userIdByEmail(rawEmail: string): Promise<string | null> {
    return (await this.users.findByEmail(normalizeEmail(rawEmail)))?.id ?? null;
  }
}
