import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { loadConfig } from 'src/config/app-config';
import { RedisConnection } from 'src/platform/redis/redis.module';
import { mailMessageSchema, type MailMessage } from 'src/platform/mail/mail-message';
import { MailOutbox } from 'src/platform/mail/mail-outbox.port';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import { validateJob, type JobData, type JobName } from 'src/platform/queue/jobs';
import { Argon2PasswordHasher } from '../adapters/security/argon2-password-hasher.adapter';
import { RedisOrMemoryAttemptLimiter } from '../adapters/security/redis-or-memory-attempt-limiter.adapter';
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

  async create(data: Pick<OneTimeToken, 'id' | 'userId' | 'purpose' | 'tokenHash' | 'expiresAt'>, now: Date): Promise<void> {
    this.rows.push({ ...data, createdAt: now, usedAt: null });
  }

  async findLive(userId: string, purpose: TokenPurpose, now: Date): Promise<OneTimeToken | null> {
    const live = this.rows.filter((t) => t.userId === userId && t.purpose === purpose && t.usedAt === null && t.expiresAt.getTime() > now.getTime());
    return live.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0] ?? null;
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

/**
 * The job queue, keeping what is queued; with `runAtOnce` (the default) it runs each
 * 'auth.link-request' job before enqueue returns, as if a worker were instant.
 */
class RecordingJobQueue extends JobQueue {
  readonly queued: { name: JobName; data: unknown }[] = [];
  runAtOnce = true;
  run: (data: JobData<'auth.link-request'>) => Promise<void> = () => Promise.resolve();

  async enqueue<N extends JobName>(name: N, data: JobData<N>): Promise<void> {
    const parsed = validateJob(name, data);
    this.queued.push({ name, data: parsed });
    if (this.runAtOnce && name === 'auth.link-request') await this.run(parsed as JobData<'auth.link-request'>);
  }

  localCounts(): null {
    return null;
  }

  stateCounts(): Promise<never> {
    return Promise.reject(new Error('not kept'));
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

export const PASSWORD = 'correct horse battery';
/** The client address of most sign-ins here. */
export const IP = '203.0.113.7';
export const DAY = 24 * 60 * 60 * 1000;
export const ago = (ms: number) => new Date(Date.now() - ms);

export const tokenFrom = (text: string, path: string): string => {
  const match = new RegExp(`${path.replace(/\//g, '\\/')}#token=([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])`).exec(text);
  if (!match?.[1]) throw new Error(`no ${path} link in:\n${text}`);
  return match[1];
};

/** AuthService and SessionAuthenticator on in-memory repositories, the real argon2id hasher and the in-memory attempt limiter. */
export function authTestBed(env: Record<string, string> = {}) {
  const config = loadConfig({ HAS_LOGIN: 'true', ADMIN_EMAILS: 'ops@example.com', ...env });
  const users = new InMemoryUserRepository();
  const sessions = new InMemorySessionRepository();
  const tokens = new InMemoryOneTimeTokenRepository();
  const hasher = new CountingArgon2Hasher(config);
  // No REDIS_URL: the connection has no client (the specs check) and the limiter counts in memory.
  const redis = new RedisConnection(config);
  const limiter = new RedisOrMemoryAttemptLimiter(redis, config);
  const jobs = new RecordingMailOutbox();
  const events = new AccountEvents();
  /** The user ids announced as confirmed, in order. */
  const confirmedIds: string[] = [];
  events.onConfirmed(async (userId) => void confirmedIds.push(userId));
  const queue = new RecordingJobQueue();
  const service = new AuthService(users, sessions, tokens, hasher, limiter, jobs, config, events, queue);
  queue.run = (request) => service.deliverLinkRequest(request);
  const sessionsAuth = new SessionAuthenticator(users, sessions, config);

  /** A confirmed account with PASSWORD, made through the service's own sign-up and confirmation. */
  async function confirmedUser(email = 'player@example.com'): Promise<User> {
    await service.signUp({ email, password: PASSWORD, password_confirmation: PASSWORD });
    const mail = jobs.mails().at(-1)!;
    await service.confirmEmail(tokenFrom(mail.text, '/auth/confirm'));
    jobs.sent.length = 0;
    return users.row(email);
  }

  return { config, users, sessions, tokens, hasher, redis, jobs, queue, service, confirmedIds, sessionsAuth, confirmedUser };
}

export type AuthTestBed = ReturnType<typeof authTestBed>;

/**
 * A fresh bed for every test of the calling describe block (with the service's info logs quiet):
 * `const bed = useAuthTestBed();`, then `bed.service`, `bed.users` inside the tests.
 */
export function useAuthTestBed(): AuthTestBed {
  let current: AuthTestBed | undefined;
  beforeEach(() => {
    current = authTestBed();
    expect(current.redis.client).toBeUndefined();
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());
  return new Proxy({} as AuthTestBed, {
    get: (_, key) => {
      if (!current) throw new Error('the auth test bed is made before each test: use it inside one');
      return current[key as keyof AuthTestBed];
    },
  });
}
