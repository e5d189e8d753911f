import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import * as argon2 from 'argon2';
import { loadConfig, type AppConfig } from 'src/config/app-config';
import { RedisConnection } from 'src/platform/redis/redis.module';
import { mailMessageSchema, type MailMessage } from 'src/platform/mail/mail-message';
import { MailOutbox } from 'src/platform/mail/mail-outbox.port';
import { Argon2PasswordHasher } from '../adapters/security/argon2-password-hasher.adapter';
import { RedisOrMemoryAttemptLimiter } from '../adapters/security/redis-or-memory-attempt-limiter.adapter';
import { InvalidCredentialsError, InvalidLinkError, TooManyAttemptsError, UnconfirmedAccountError } from '../domain/auth.errors';
import type { OneTimeToken, TokenPurpose } from '../domain/one-time-token';
import { OneTimeTokenRepository } from '../domain/one-time-token-repository.port';
import { SessionRepository } from '../domain/session-repository.port';
import { UserRepository } from '../domain/user-repository.port';
import { hashSecret } from '../domain/secrets';
import type { Session } from '../domain/session';
import type { User } from '../domain/user';
import { AccountEvents } from './account-events.service';
import { SessionAuthenticator } from './session-authenticator.service';
import { AuthService } from './auth.service';

// The real argon2, with its verify counted: proves how many argon2 verifications a sign-in costs.
jest.mock('argon2', () => {
  const actual = jest.requireActual<typeof import('argon2')>('argon2');
  return { ...actual, verify: jest.fn(actual.verify) };
});
const argon2Verifies = () => jest.mocked(argon2.verify).mock.calls.length;

// ---------------------------------------------------------------------------------------------
// In-memory implementations of the ports. They behave like the MikroORM adapters (unique email,
// conditional updates, atomic single-use tokens honouring expiresAt against the `now` passed in)
// and hand out copies, as a database would.
// ---------------------------------------------------------------------------------------------

class InMemoryUserRepository extends UserRepository {
  readonly rows = new Map<string, User>();

  async findById(id: string): Promise<User | null> {
    const user = this.rows.get(id);
    return user ? { ...user } : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    const user = [...this.rows.values()].find((u) => u.email === email);
    return user ? { ...user } : null;
  }

  async findByGoogleSubject(subject: string): Promise<User | null> {
    const user = [...this.rows.values()].find((u) => u.googleSubject === subject);
    return user ? { ...user } : null;
  }

  async create(data: Pick<User, 'email' | 'passwordHash' | 'confirmedAt' | 'googleSubject'>): Promise<User | null> {
    if ([...this.rows.values()].some((u) => u.email === data.email)) return null;
    const user: User = { id: randomUUID(), createdAt: new Date(), ...data };
    this.rows.set(user.id, user);
    return { ...user };
  }

  async update(id: string, changes: Partial<Pick<User, 'passwordHash' | 'confirmedAt' | 'googleSubject'>>): Promise<void> {
    const user = this.rows.get(id);
    if (user) Object.assign(user, changes);
  }

  async firstConfirmedId(): Promise<string | null> {
    const confirmed = [...this.rows.values()].filter((u) => u.confirmedAt).sort((a, b) => a.confirmedAt!.getTime() - b.confirmedAt!.getTime());
    return confirmed[0]?.id ?? null;
  }

  async emailsOf(ids: string[]): Promise<Map<string, string>> {
    return new Map(ids.flatMap((id) => (this.rows.has(id) ? [[id, this.rows.get(id)!.email] as const] : [])));
  }

  /** The stored row (not a copy), for assertions and for arranging a test. */
  row(email: string): User {
    const user = [...this.rows.values()].find((u) => u.email === email);
    if (!user) throw new Error(`no user ${email}`);
    return user;
  }
}

class InMemorySessionRepository extends SessionRepository {
  readonly rows = new Map<string, Session>();

  async create(data: Pick<Session, 'userId' | 'tokenHash' | 'expiresAt'>, now: Date): Promise<Session> {
    const session: Session = { id: randomUUID(), ...data, createdAt: now, lastUsedAt: now, revokedAt: null };
    this.rows.set(session.id, session);
    return { ...session };
  }

  async findByTokenHash(tokenHash: string): Promise<Session | null> {
    const session = [...this.rows.values()].find((s) => s.tokenHash === tokenHash);
    return session ? { ...session } : null;
  }

  async touch(id: string, at: Date): Promise<void> {
    const session = this.rows.get(id);
    if (session && session.revokedAt === null) session.lastUsedAt = at;
  }

  async revokeByTokenHash(tokenHash: string, at: Date): Promise<boolean> {
    const session = [...this.rows.values()].find((row) => row.tokenHash === tokenHash);
    if (!session || session.revokedAt !== null) return false;
    session.revokedAt = at;
    return true;
  }

  async revokeAllOf(userId: string, at: Date, keep?: string): Promise<number> {
    let count = 0;
    for (const session of this.rows.values()) {
      if (session.userId === userId && session.revokedAt === null && session.id !== keep) {
        session.revokedAt = at;
        count++;
      }
    }
    return count;
  }

  ofUser(userId: string): Session[] {
    return [...this.rows.values()].filter((s) => s.userId === userId);
  }

  /** The stored row of a bearer token (not a copy). */
  row(token: string): Session {
    const session = [...this.rows.values()].find((s) => s.tokenHash === hashSecret(token));
    if (!session) throw new Error('no such session');
    return session;
  }
}

class InMemoryOneTimeTokenRepository extends OneTimeTokenRepository {
  readonly rows: OneTimeToken[] = [];
  consumeCalls = 0;

  async create(data: Pick<OneTimeToken, 'userId' | 'purpose' | 'tokenHash' | 'expiresAt'>, now: Date): Promise<void> {
    this.rows.push({ id: randomUUID(), ...data, createdAt: now, usedAt: null });
  }

  async consume(tokenHash: string, purpose: TokenPurpose, now: Date): Promise<string | null> {
    this.consumeCalls++;
    const token = this.rows.find(
      (t) => t.tokenHash === tokenHash && t.purpose === purpose && t.usedAt === null && t.expiresAt.getTime() > now.getTime(),
    );
    if (!token) return null;
    token.usedAt = now;
    return token.userId;
  }

  row(secret: string): OneTimeToken {
    const token = this.rows.find((t) => t.tokenHash === hashSecret(secret));
    if (!token) throw new Error('no such token');
    return token;
  }
}

/** Records jobs after checking them against the registry, as the real queues do. */
/** The outbox port, keeping what would be sent (checked against the same caps as the real one). */
class RecordingMailOutbox extends MailOutbox {
  readonly sent: MailMessage[] = [];

  async send(message: MailMessage): Promise<void> {
    this.sent.push(mailMessageSchema.parse(message));
  }

  mails(): MailMessage[] {
    return this.sent;
  }
}

/** The real argon2id hasher, counting what the service asks of it. */
class CountingArgon2Hasher extends Argon2PasswordHasher {
  readonly calls = { hash: 0, verify: 0, verifyDummy: 0 };

  override hash(password: string): Promise<string> {
    this.calls.hash++;
    return super.hash(password);
  }

  override verify(stored: string, password: string): Promise<boolean> {
    this.calls.verify++;
    return super.verify(stored, password);
  }

  override verifyDummy(password: string): Promise<void> {
    this.calls.verifyDummy++;
    return super.verifyDummy(password);
  }
}

// ---------------------------------------------------------------------------------------------

const PASSWORD = 'correct horse battery';
/** The client address of most sign-ins here. */
const IP = '203.0.113.7';
const DAY = 24 * 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms);

const tokenFrom = (text: string, path: string): string => {
  const match = new RegExp(`${path.replace(/\//g, '\\/')}#token=([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])`).exec(text);
  if (!match?.[1]) throw new Error(`no ${path} link in:\n${text}`);
  return match[1];
};

describe('AuthService', () => {
  let config: AppConfig;
  let users: InMemoryUserRepository;
  let sessions: InMemorySessionRepository;
  let tokens: InMemoryOneTimeTokenRepository;
  let hasher: CountingArgon2Hasher;
  let limiter: RedisOrMemoryAttemptLimiter;
  let jobs: RecordingMailOutbox;
  let service: AuthService;
  /** The user ids announced as confirmed, in order. */
  let confirmedIds: string[];
  let sessionsAuth: SessionAuthenticator;

  beforeEach(() => {
    config = loadConfig({ HAS_LOGIN: 'true', ADMIN_EMAILS: 'ops@example.com' });
    users = new InMemoryUserRepository();
    sessions = new InMemorySessionRepository();
    tokens = new InMemoryOneTimeTokenRepository();
    hasher = new CountingArgon2Hasher(config);
    // No REDIS_URL: the connection has no client and the limiter counts in memory.
    const redis = new RedisConnection(config);
    expect(redis.client).toBeUndefined();
    limiter = new RedisOrMemoryAttemptLimiter(redis, config);
    jobs = new RecordingMailOutbox();
    const events = new AccountEvents();
    confirmedIds = [];
    events.onConfirmed(async (userId) => void confirmedIds.push(userId));
    service = new AuthService(users, sessions, tokens, hasher, limiter, jobs, config, events);
    sessionsAuth = new SessionAuthenticator(users, sessions, config);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });

  afterEach(() => jest.restoreAllMocks());

  /** A confirmed account with PASSWORD, made through the service's own sign-up and confirmation. */
  async function confirmedUser(email = 'player@example.com'): Promise<User> {
    await service.signUp({ email, password: PASSWORD, password_confirmation: PASSWORD });
    const mail = jobs.mails().at(-1)!;
    await service.confirmEmail(tokenFrom(mail.text, '/auth/confirm'));
    jobs.sent.length = 0;
    return users.row(email);
  }

  describe('signUp', () => {
    it('stores a lower-cased email and an argon2id hash, never the password, and mails one confirmation link', async () => {
      await service.signUp({ email: '  Player@Example.COM ', password: PASSWORD, password_confirmation: PASSWORD });

      expect(users.rows.size).toBe(1);
      const user = users.row('player@example.com');
      expect(user.confirmedAt).toBeNull();
      expect(user.googleSubject).toBeNull();
      expect(user.passwordHash).toMatch(/^\$argon2id\$/);
      expect(user.passwordHash).not.toContain(PASSWORD);
      expect(JSON.stringify([...users.rows.values()])).not.toContain(PASSWORD);
      await expect(argon2.verify(user.passwordHash!, PASSWORD)).resolves.toBe(true);
      expect(hasher.calls.hash).toBe(1);

      expect(jobs.sent).toHaveLength(1);
      const mail = jobs.mails()[0]!;
      expect(mail.to).toBe('player@example.com');
      expect(mail.text).toContain(`${config.http.publicUrl}/auth/confirm#token=`);
      const token = tokenFrom(mail.text, '/auth/confirm');

      // The link's token is stored only as its hash, for this user and purpose.
      expect(tokens.rows).toHaveLength(1);
      expect(tokens.rows[0]).toMatchObject({ userId: user.id, purpose: 'account_confirm', tokenHash: hashSecret(token), usedAt: null });
      expect(JSON.stringify(tokens.rows)).not.toContain(token);
    });

    it('mails "already have an account" to an existing confirmed address, creates nothing, and costs the same hash as a new one', async () => {
      const existing = await confirmedUser('player@example.com');
      const before = { users: users.rows.size, tokens: tokens.rows.length, hashes: hasher.calls.hash };

      await service.signUp({ email: 'PLAYER@example.com', password: 'another password', password_confirmation: 'another password' });

      expect(users.rows.size).toBe(before.users);
      expect(tokens.rows).toHaveLength(before.tokens);
      // One argon2 hash like a new address: the answer's timing does not tell that the address is taken.
      expect(hasher.calls.hash).toBe(before.hashes + 1);
      expect(users.row('player@example.com')).toEqual(existing); // password unchanged
      expect(jobs.sent).toHaveLength(1);
      const mail = jobs.mails()[0]!;
      expect(mail.to).toBe('player@example.com');
      expect(mail.subject).toMatch(/already have an? .*account/);
      expect(mail.text).toContain('already has an account');
      expect(mail.text).toContain(`${config.http.publicUrl}/auth/forgot_password`);
      expect(mail.text).not.toContain('#token=');
    });

    it('sends a new confirmation link instead to an existing unconfirmed address', async () => {
      await service.signUp({ email: 'player@example.com', password: PASSWORD, password_confirmation: PASSWORD });
      await service.signUp({ email: 'player@example.com', password: PASSWORD, password_confirmation: PASSWORD });

      expect(users.rows.size).toBe(1);
      expect(jobs.mails()).toHaveLength(2);
      expect(tokenFrom(jobs.mails()[1]!.text, '/auth/confirm')).not.toBe(tokenFrom(jobs.mails()[0]!.text, '/auth/confirm'));
    });
  });

  describe('signIn', () => {
    it('answers an unknown email and a wrong password alike, each after exactly one argon2 verify', async () => {
      await confirmedUser('player@example.com');

      hasher.calls.verify = hasher.calls.verifyDummy = 0;
      let before = argon2Verifies();
      const unknown = await service.signIn({ email: 'nobody@example.com', password: PASSWORD }, IP).catch((e: unknown) => e);
      expect(hasher.calls).toMatchObject({ verify: 0, verifyDummy: 1 });
      expect(argon2Verifies() - before).toBe(1);

      hasher.calls.verify = hasher.calls.verifyDummy = 0;
      before = argon2Verifies();
      const wrong = await service.signIn({ email: 'player@example.com', password: 'wrong password' }, IP).catch((e: unknown) => e);
      expect(hasher.calls).toMatchObject({ verify: 1, verifyDummy: 0 });
      expect(argon2Verifies() - before).toBe(1);

      expect(unknown).toBeInstanceOf(InvalidCredentialsError);
      expect(wrong).toBeInstanceOf(InvalidCredentialsError);
      expect((unknown as Error).constructor).toBe((wrong as Error).constructor);
      expect((unknown as Error).message).toBe((wrong as Error).message);
      expect((wrong as Error).message).toBe('Invalid email or password');
      expect(sessions.rows.size).toBe(0);
    });

    it('answers an account without a password (Google-only) like an unknown email', async () => {
      await service.signInWithGoogle({ subject: 'google-1', email: 'g@example.com', emailVerified: true });
      hasher.calls.verify = hasher.calls.verifyDummy = 0;

      await expect(service.signIn({ email: 'g@example.com', password: PASSWORD }, IP)).rejects.toThrow(InvalidCredentialsError);
      expect(hasher.calls).toMatchObject({ verify: 0, verifyDummy: 1 });
    });

    it('refuses an unconfirmed account with the right password, naming the address', async () => {
      await service.signUp({ email: 'New@Example.com', password: PASSWORD, password_confirmation: PASSWORD });

      const error = await service.signIn({ email: 'new@example.com', password: PASSWORD }, IP).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnconfirmedAccountError);
      expect((error as Error).message).toContain('new@example.com');
      expect(sessions.rows.size).toBe(0);
    });

    it('starts a session whose bearer token is stored only hashed', async () => {
      const user = await confirmedUser();

      const signedIn = await service.signIn({ email: ' Player@Example.com', password: PASSWORD }, IP);
      expect(signedIn.user.id).toBe(user.id);
      expect(signedIn.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(signedIn.session.tokenHash).toBe(hashSecret(signedIn.token));
      expect(JSON.stringify([...sessions.rows.values()])).not.toContain(signedIn.token);
      expect(signedIn.session.expiresAt.getTime() - signedIn.session.createdAt.getTime()).toBe(config.auth.sessionMaxMs);
    });

    it('refuses the 11th attempt for one address from one client, whatever its spelling, before any hashing', async () => {
      for (let i = 0; i < 10; i++) {
        const email = i % 2 ? 'victim@example.com' : ' VICTIM@example.com';
        await expect(service.signIn({ email, password: `guess ${i}` }, IP)).rejects.toThrow(InvalidCredentialsError);
      }
      const verifies = hasher.calls.verifyDummy + hasher.calls.verify;

      const error = await service.signIn({ email: 'victim@example.com', password: 'guess 11' }, IP).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TooManyAttemptsError);
      expect((error as TooManyAttemptsError).retryAfterSeconds).toBeGreaterThan(0);
      expect(hasher.calls.verifyDummy + hasher.calls.verify).toBe(verifies);

      // Another address from the same client is its own count.
      await expect(service.signIn({ email: 'other@example.com', password: 'guess' }, IP)).rejects.toThrow(InvalidCredentialsError);
    });

    it("does not let strangers lock the owner out: failures from elsewhere only slow the address down", async () => {
      await confirmedUser('owner@example.com');
      const waits: number[] = [];
      jest.spyOn(service as unknown as { wait(ms: number): Promise<void> }, 'wait').mockImplementation(async (ms) => void waits.push(ms));

      // Thirty wrong passwords from ten attackers' addresses, three each.
      for (let i = 0; i < 30; i++) {
        await expect(service.signIn({ email: 'owner@example.com', password: `guess ${i}` }, `198.51.100.${i % 10}`)).rejects.toThrow(
          InvalidCredentialsError,
        );
      }
      // The first ten are free; then each attempt waits longer, up to the cap, and none is refused.
      expect(waits.slice(0, 5)).toEqual([500, 1_000, 2_000, 4_000, 5_000]);
      expect(Math.max(...waits)).toBe(5_000);
      expect(waits).toHaveLength(20);

      // The owner, from their own address, gets in (after the same short wait).
      await expect(service.signIn({ email: 'owner@example.com', password: PASSWORD }, IP)).resolves.toMatchObject({
        user: { email: 'owner@example.com' },
      });
      expect(waits.at(-1)).toBe(5_000);
    });

    it('starts a client\'s count again after it signs in', async () => {
      await confirmedUser('forgetful@example.com');
      // Twenty-seven typos slow the address down too: the waits are skipped here.
      jest.spyOn(service as unknown as { wait(ms: number): Promise<void> }, 'wait').mockResolvedValue(undefined);
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 9; i++) {
          await expect(service.signIn({ email: 'forgetful@example.com', password: `typo ${i}` }, IP)).rejects.toThrow(InvalidCredentialsError);
        }
        await expect(service.signIn({ email: 'forgetful@example.com', password: PASSWORD }, IP)).resolves.toBeDefined();
      }
    });
  });

  describe('confirmation announcements (the credits module grants the trial on them)', () => {
    it('announces each account once: by its link, by Google (new or taking over an unconfirmed one), by a reset', async () => {
      const byLink = await confirmedUser('link@example.com');
      expect(confirmedIds).toEqual([byLink.id]);

      await service.signInWithGoogle({ subject: 'g-new', email: 'new@example.com', emailVerified: true });
      expect(confirmedIds).toEqual([byLink.id, users.row('new@example.com').id]);

      await service.signUp({ email: 'taken@example.com', password: PASSWORD, password_confirmation: PASSWORD });
      await service.signInWithGoogle({ subject: 'g-taken', email: 'taken@example.com', emailVerified: true });
      expect(confirmedIds.at(-1)).toBe(users.row('taken@example.com').id);

      await service.signUp({ email: 'reset@example.com', password: PASSWORD, password_confirmation: PASSWORD });
      await service.requestPasswordReset('reset@example.com');
      await service.resetPassword({ token: tokenFrom(jobs.mails().at(-1)!.text, '/auth/password_reset'), password: 'another password', password_confirmation: 'another password' });
      expect(confirmedIds.at(-1)).toBe(users.row('reset@example.com').id);
      expect(confirmedIds).toHaveLength(4);
    });

    it('does not announce an account that was already confirmed (Google linking, a second sign-in, a reset)', async () => {
      await confirmedUser('known@example.com');
      await service.signInWithGoogle({ subject: 'g-known', email: 'known@example.com', emailVerified: true });
      await service.signInWithGoogle({ subject: 'g-known', email: 'known@example.com', emailVerified: true });
      await service.requestPasswordReset('known@example.com');
      await service.resetPassword({ token: tokenFrom(jobs.mails().at(-1)!.text, '/auth/password_reset'), password: 'another password', password_confirmation: 'another password' });
      expect(confirmedIds).toHaveLength(1);
    });
  });

  describe('confirmEmail', () => {
    it('confirms once; the second use of the link is refused', async () => {
      await service.signUp({ email: 'player@example.com', password: PASSWORD, password_confirmation: PASSWORD });
      const token = tokenFrom(jobs.mails()[0]!.text, '/auth/confirm');

      await service.confirmEmail(token);
      expect(users.row('player@example.com').confirmedAt).toBeInstanceOf(Date);
      await expect(service.signIn({ email: 'player@example.com', password: PASSWORD }, IP)).resolves.toMatchObject({
        user: { email: 'player@example.com' },
      });

      await expect(service.confirmEmail(token)).rejects.toThrow(InvalidLinkError);
      await expect(service.confirmEmail(token)).rejects.toThrow('This link is invalid or has expired.');
    });

    it.each([
      ['blank', ''],
      ['garbage', 'garbage'],
      ['almost a token', `${'a'.repeat(42)}!`],
      ['too long', 'a'.repeat(44)],
      ['not a string', undefined as unknown as string],
    ])('refuses a %s token without touching the repository', async (_label, token) => {
      await expect(service.confirmEmail(token)).rejects.toThrow(InvalidLinkError);
      expect(tokens.consumeCalls).toBe(0);
    });

    it('refuses a well-formed token that was never issued', async () => {
      await expect(service.confirmEmail('A'.repeat(43))).rejects.toThrow(InvalidLinkError);
      expect(tokens.consumeCalls).toBe(1);
    });

    it('refuses an expired link and leaves the account unconfirmed', async () => {
      await service.signUp({ email: 'player@example.com', password: PASSWORD, password_confirmation: PASSWORD });
      const token = tokenFrom(jobs.mails()[0]!.text, '/auth/confirm');
      tokens.row(token).expiresAt = ago(1_000);

      await expect(service.confirmEmail(token)).rejects.toThrow(InvalidLinkError);
      expect(users.row('player@example.com').confirmedAt).toBeNull();
    });

    it('does not accept a password reset link as a confirmation link', async () => {
      await service.signUp({ email: 'player@example.com', password: PASSWORD, password_confirmation: PASSWORD });
      await service.requestPasswordReset('player@example.com');
      const reset = tokenFrom(jobs.mails()[1]!.text, '/auth/password_reset');

      await expect(service.confirmEmail(reset)).rejects.toThrow(InvalidLinkError);
      expect(users.row('player@example.com').confirmedAt).toBeNull();
    });
  });

  describe('password reset', () => {
    it('revokes every session of the user, sets a new hash, and signs no one in', async () => {
      const user = await confirmedUser();
      const other = await confirmedUser('other@example.com');
      const first = await service.signIn({ email: 'player@example.com', password: PASSWORD }, IP);
      const second = await service.signIn({ email: 'player@example.com', password: PASSWORD }, IP);
      const bystander = await service.signIn({ email: 'other@example.com', password: PASSWORD }, IP);
      const oldHash = users.row('player@example.com').passwordHash;

      await service.requestPasswordReset('Player@Example.com');
      const mail = jobs.mails()[0]!;
      expect(mail.to).toBe('player@example.com');
      const token = tokenFrom(mail.text, '/auth/password_reset');
      const sessionsBefore = sessions.rows.size;

      const result = await service.resetPassword({ token, password: 'a new password', password_confirmation: 'a new password' });

      expect(result).toBeUndefined();
      expect(sessions.rows.size).toBe(sessionsBefore); // no session started
      expect(sessions.ofUser(user.id).every((s) => s.revokedAt !== null)).toBe(true);
      expect(sessions.ofUser(user.id)).toHaveLength(2);
      await expect(sessionsAuth.authenticate(first.token)).resolves.toBeNull();
      await expect(sessionsAuth.authenticate(second.token)).resolves.toBeNull();
      await expect(sessionsAuth.authenticate(bystander.token)).resolves.toMatchObject({ user: { id: other.id } });

      const newHash = users.row('player@example.com').passwordHash!;
      expect(newHash).not.toBe(oldHash);
      expect(newHash).toMatch(/^\$argon2id\$/);
      await expect(service.signIn({ email: 'player@example.com', password: PASSWORD }, IP)).rejects.toThrow(InvalidCredentialsError);
      await expect(service.signIn({ email: 'player@example.com', password: 'a new password' }, IP)).resolves.toMatchObject({
        user: { id: user.id },
      });

      // The link works once.
      await expect(service.resetPassword({ token, password: 'third password', password_confirmation: 'third password' })).rejects.toThrow(
        InvalidLinkError,
      );
    });

    it('confirms the address of an unconfirmed account', async () => {
      await service.signUp({ email: 'player@example.com', password: PASSWORD, password_confirmation: PASSWORD });
      await service.requestPasswordReset('player@example.com');
      const token = tokenFrom(jobs.mails()[1]!.text, '/auth/password_reset');

      await service.resetPassword({ token, password: 'a new password', password_confirmation: 'a new password' });
      expect(users.row('player@example.com').confirmedAt).toBeInstanceOf(Date);
    });

    it('mails nothing for an unknown address and refuses a bad or expired link', async () => {
      await service.requestPasswordReset('nobody@example.com');
      expect(jobs.sent).toHaveLength(0);

      await expect(service.resetPassword({ token: '', password: 'a new password', password_confirmation: 'a new password' })).rejects.toThrow(
        InvalidLinkError,
      );
      expect(tokens.consumeCalls).toBe(0);

      await confirmedUser();
      await service.requestPasswordReset('player@example.com');
      const token = tokenFrom(jobs.mails()[0]!.text, '/auth/password_reset');
      tokens.row(token).expiresAt = ago(1);
      const hash = users.row('player@example.com').passwordHash;
      await expect(service.resetPassword({ token, password: 'a new password', password_confirmation: 'a new password' })).rejects.toThrow(
        InvalidLinkError,
      );
      expect(users.row('player@example.com').passwordHash).toBe(hash);
    });
  });

  describe('authenticate', () => {
    async function signedIn() {
      await confirmedUser();
      return service.signIn({ email: 'player@example.com', password: PASSWORD }, IP);
    }

    it('returns the user and session of a live token', async () => {
      const { token, user } = await signedIn();
      await expect(sessionsAuth.authenticate(token)).resolves.toMatchObject({ user: { id: user.id }, session: { tokenHash: hashSecret(token) } });
    });

    it('refuses malformed and unknown tokens', async () => {
      await signedIn();
      await expect(sessionsAuth.authenticate('')).resolves.toBeNull();
      await expect(sessionsAuth.authenticate('not a token')).resolves.toBeNull();
      await expect(sessionsAuth.authenticate('B'.repeat(43))).resolves.toBeNull();
    });

    it('refuses a revoked session (sign-out)', async () => {
      const { token } = await signedIn();
      await expect(service.signOut(token)).resolves.toBe(true);
      expect(sessions.row(token).revokedAt).toBeInstanceOf(Date);
      await expect(sessionsAuth.authenticate(token)).resolves.toBeNull();
      await expect(service.signOut(token)).resolves.toBe(false);
    });

    it('refuses a session idle for longer than sessionIdleMs', async () => {
      const { token } = await signedIn();
      const row = sessions.row(token);
      row.lastUsedAt = ago(config.auth.sessionIdleMs + 60_000);
      expect(row.expiresAt.getTime()).toBeGreaterThan(Date.now());

      await expect(sessionsAuth.authenticate(token)).resolves.toBeNull();
    });

    it('keeps a session used within sessionIdleMs alive and records its use', async () => {
      const { token } = await signedIn();
      const row = sessions.row(token);
      const lastUsed = ago(config.auth.sessionIdleMs - DAY);
      row.lastUsedAt = lastUsed;

      await expect(sessionsAuth.authenticate(token)).resolves.not.toBeNull();
      expect(row.lastUsedAt.getTime()).toBeGreaterThan(lastUsed.getTime());
    });

    it('refuses a session past its absolute expiry, however recently used', async () => {
      const { token } = await signedIn();
      const row = sessions.row(token);
      row.expiresAt = ago(1_000);
      row.lastUsedAt = ago(0);

      await expect(sessionsAuth.authenticate(token)).resolves.toBeNull();
    });

    it('refuses a session whose user is gone', async () => {
      const { token, user } = await signedIn();
      users.rows.delete(user.id);
      await expect(sessionsAuth.authenticate(token)).resolves.toBeNull();
    });
  });

  describe('signInWithGoogle', () => {
    it('signs in the account linked to the Google subject', async () => {
      const user = await confirmedUser();
      await users.update(user.id, { googleSubject: 'google-sub-1' });

      // The subject decides, whatever email Google reports now.
      const result = await service.signInWithGoogle({ subject: 'google-sub-1', email: 'renamed@example.com', emailVerified: false });
      expect(result.user.id).toBe(user.id);
      expect(result.session.userId).toBe(user.id);
      expect(result.session.tokenHash).toBe(hashSecret(result.token));
      expect(users.rows.size).toBe(1);
    });

    it('links an existing account by its verified email, confirming it', async () => {
      await service.signUp({ email: 'player@example.com', password: PASSWORD, password_confirmation: PASSWORD });
      const user = users.row('player@example.com');
      expect(user.confirmedAt).toBeNull();

      const result = await service.signInWithGoogle({ subject: 'google-sub-2', email: 'Player@Example.com', emailVerified: true });

      expect(users.rows.size).toBe(1);
      expect(result.user).toMatchObject({ id: user.id, googleSubject: 'google-sub-2' });
      expect(result.user.confirmedAt).toBeInstanceOf(Date);
      expect(users.row('player@example.com')).toMatchObject({ googleSubject: 'google-sub-2' });
      expect(users.row('player@example.com').confirmedAt).toBeInstanceOf(Date);
      // Whoever chose the password of an unconfirmed account was never proven to own the address.
      expect(users.row('player@example.com').passwordHash).toBeNull();
      await expect(sessionsAuth.authenticate(result.token)).resolves.toMatchObject({ user: { id: user.id } });
    });

    it('keeps the original confirmation date when linking a confirmed account', async () => {
      const user = await confirmedUser();
      const confirmedAt = ago(7 * DAY);
      users.row('player@example.com').confirmedAt = confirmedAt;

      await service.signInWithGoogle({ subject: 'google-sub-3', email: 'player@example.com', emailVerified: true });
      expect(users.row('player@example.com')).toMatchObject({ id: user.id, confirmedAt, googleSubject: 'google-sub-3' });
    });

    it('refuses an unverified (or missing) email: it never takes over an account', async () => {
      const user = await confirmedUser();

      await expect(service.signInWithGoogle({ subject: 'attacker', email: 'player@example.com', emailVerified: false })).rejects.toThrow(
        InvalidLinkError,
      );
      await expect(service.signInWithGoogle({ subject: 'attacker', emailVerified: true })).rejects.toThrow(InvalidLinkError);
      await expect(service.signInWithGoogle({ subject: 'attacker', email: 'new@example.com', emailVerified: false })).rejects.toThrow(
        InvalidLinkError,
      );

      expect(users.row('player@example.com')).toEqual(user);
      expect(users.rows.size).toBe(1);
      expect(sessions.rows.size).toBe(0);
    });

    it('creates a confirmed account without a password otherwise', async () => {
      const result = await service.signInWithGoogle({ subject: 'google-sub-4', email: ' Fresh@Example.com', emailVerified: true });

      expect(users.rows.size).toBe(1);
      const user = users.row('fresh@example.com');
      expect(user).toMatchObject({ id: result.user.id, passwordHash: null, googleSubject: 'google-sub-4' });
      expect(user.confirmedAt).toBeInstanceOf(Date);
      expect(result.session.userId).toBe(user.id);
      expect(hasher.calls.hash).toBe(0);
      expect(jobs.sent).toHaveLength(0);

      // Next time the subject finds it.
      const again = await service.signInWithGoogle({ subject: 'google-sub-4', email: 'fresh@example.com', emailVerified: true });
      expect(again.user.id).toBe(user.id);
      expect(users.rows.size).toBe(1);
    });
  });

  it('knows the administrators from ADMIN_EMAILS', async () => {
    const player = await confirmedUser('player@example.com');
    const admin = await confirmedUser('ops@example.com');
    const deployed = new SessionAuthenticator(users, sessions, loadConfig({ HAS_LOGIN: 'true', ADMIN_EMAILS: 'ops@example.com', NODE_ENV: 'production' }));
    await expect(deployed.isAdmin(admin)).resolves.toBe(true);
    // Outside the local try-out, being first means nothing.
    await expect(deployed.isAdmin(player)).resolves.toBe(false);
  });

  it('makes the first confirmed account the admin in the local try-out (nothing configured), and no other', async () => {
    const local = new SessionAuthenticator(users, sessions, loadConfig({}));
    const unconfirmed = (await users.create({ email: 'typo@example.com', passwordHash: 'x', confirmedAt: null, googleSubject: null }))!;
    const first = await confirmedUser('first@example.com');
    const second = await confirmedUser('second@example.com');
    await expect(local.isAdmin(unconfirmed)).resolves.toBe(false);
    await expect(local.isAdmin(first)).resolves.toBe(true);
    await expect(local.isAdmin(second)).resolves.toBe(false);
  });
});
