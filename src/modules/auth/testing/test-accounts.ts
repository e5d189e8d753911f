import type { Provider } from '@nestjs/common';
import { AdminAccess, AdminGuard, SignedInGuard } from '../adapters/http/auth.guards';
import { AccountEvents } from '../application/account-events.service';
import { SessionAuthenticator } from '../application/session-authenticator.service';
import { hashSecret, newSecret } from '../domain/secrets';
import { SessionRepository } from '../domain/session-repository.port';
import { UserRepository } from '../domain/user-repository.port';
import { InMemorySessionRepository } from './in-memory-session-repository';
import { InMemoryUserRepository } from './in-memory-user-repository';

const DAY_MS = 86_400_000;

/**
 * Accounts and sessions for controller specs: what AuthGuardsModule provides (the guards, the
 * session lookup, account events), on in-memory repositories, and signed-in requests made the
 * way sign-in makes them (a confirmed account, a session whose token hash is stored).
 */
export class TestAccounts {
  readonly users = new InMemoryUserRepository();
  readonly sessions = new InMemorySessionRepository();

  /** The providers of AuthGuardsModule, bound to these repositories. */
  providers(): Provider[] {
    return [
      SessionAuthenticator,
      AccountEvents,
      SignedInGuard,
      AdminGuard,
      AdminAccess,
      { provide: UserRepository, useValue: this.users },
      { provide: SessionRepository, useValue: this.sessions },
    ];
  }

  /**
   * A confirmed account (made unless its address has one) with a new live session: its id, its
   * token and the header that carries it. `admin@example.com` is the test config's admin.
   */
  async signIn(email = 'player@example.com'): Promise<{ userId: string; token: string; headers: { authorization: string } }> {
    const user = (await this.users.findByEmail(email)) ?? (await this.users.create({ email, passwordHash: null, confirmedAt: new Date(), googleSubject: null }))!;
    const token = newSecret();
    await this.sessions.create({ userId: user.id, tokenHash: hashSecret(token), expiresAt: new Date(Date.now() + DAY_MS) }, new Date());
    return { userId: user.id, token, headers: { authorization: `Bearer ${token}` } };
  }
}
