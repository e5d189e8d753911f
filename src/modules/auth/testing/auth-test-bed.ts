import { Logger, type Provider } from '@nestjs/common';
import { loadConfig } from 'src/config/app-config';
import { MailOutbox } from 'src/platform/mail/mail-outbox.port';
import { RecordingMailOutbox } from 'src/platform/mail/testing/recording-mail-outbox';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import { RecordingJobQueue } from 'src/platform/queue/testing/recording-job-queue';
import { RedisConnection } from 'src/platform/redis/redis.module';
import { RedisOrMemoryAttemptLimiter } from '../adapters/security/redis-or-memory-attempt-limiter.adapter';
import { AccountEvents } from '../application/account-events.service';
import { AuthService } from '../application/auth.service';
import { SessionAuthenticator } from '../application/session-authenticator.service';
import { AttemptLimiter } from '../domain/attempt-limiter.port';
import { OneTimeTokenRepository } from '../domain/one-time-token-repository.port';
import { PasswordHasher } from '../domain/password-hasher.port';
import type { User } from '../domain/user';
import { CountingPasswordHasher } from './counting-password-hasher';
import { FakePasswordHasher } from './fake-password-hasher';
import { InMemoryOneTimeTokenRepository } from './in-memory-one-time-token-repository';
import { InMemorySessionRepository } from './in-memory-session-repository';
import { InMemoryUserRepository } from './in-memory-user-repository';

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

/**
 * AuthService and SessionAuthenticator on the in-memory repositories, the real argon2id hasher
 * (counted), the in-memory attempt limiter, the recording outbox, and a queue that runs each
 * 'auth.link-request' job before enqueue returns, as if a worker were instant.
 */
export function authTestBed(env: Record<string, string> = {}) {
  const config = loadConfig({ HAS_LOGIN: 'true', ADMIN_EMAILS: 'ops@example.com', ...env });
  const users = new InMemoryUserRepository();
  const sessions = new InMemorySessionRepository();
  const tokens = new InMemoryOneTimeTokenRepository();
  const hasher = new CountingPasswordHasher(config);
  // No REDIS_URL: the connection has no client (the specs check) and the limiter counts in memory.
  const redis = new RedisConnection(config);
  const limiter = new RedisOrMemoryAttemptLimiter(redis, config);
  const outbox = new RecordingMailOutbox();
  const events = new AccountEvents();
  /** The user ids announced as confirmed, in order. */
  const confirmedIds: string[] = [];
  events.onConfirmed(async (userId) => void confirmedIds.push(userId));
  const queue = new RecordingJobQueue();
  const service = new AuthService(users, sessions, tokens, hasher, limiter, outbox, config, events, queue);
  queue.handle('auth.link-request', (request) => service.deliverLinkRequest(request));
  const sessionsAuth = new SessionAuthenticator(users, sessions, config);

  /** A confirmed account with PASSWORD, made through the service's own sign-up and confirmation. */
  async function confirmedUser(email = 'player@example.com'): Promise<User> {
    await service.signUp({ email, password: PASSWORD, password_confirmation: PASSWORD });
    const mail = outbox.mails().at(-1)!;
    await service.confirmEmail(tokenFrom(mail.text, '/auth/confirm'));
    outbox.sent.length = 0;
    return users.row(email);
  }

  return { config, users, sessions, tokens, hasher, limiter, redis, outbox, events, queue, service, confirmedIds, sessionsAuth, confirmedUser };
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

/**
 * AuthService's providers for controller specs, beside TestAccounts' (users, sessions, guards):
 * the in-memory link tokens, a cheap hasher (the HTTP layer is the subject, not argon2id), the
 * attempt limiter counting in memory (no REDIS_URL), and the spec's outbox and queue.
 */
export function authServiceProviders(fakes: { outbox: RecordingMailOutbox; queue: RecordingJobQueue }): Provider[] {
  return [
    AuthService,
    RedisConnection,
    { provide: OneTimeTokenRepository, useValue: new InMemoryOneTimeTokenRepository() },
    { provide: PasswordHasher, useClass: FakePasswordHasher },
    { provide: AttemptLimiter, useClass: RedisOrMemoryAttemptLimiter },
    { provide: MailOutbox, useValue: fakes.outbox },
    { provide: JobQueue, useValue: fakes.queue },
  ];
}
