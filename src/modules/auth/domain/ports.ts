import type { OneTimeToken, TokenPurpose } from './one-time-token';
import type { Session } from './session';
import type { User } from './user';

export abstract class UserRepository {
  abstract findById(id: string): Promise<User | null>;
  abstract findByEmail(email: string): Promise<User | null>;
  abstract findByGoogleSubject(subject: string): Promise<User | null>;
  /** Creates the user; null when the email is already taken (a concurrent sign-up won). */
  abstract create(user: Pick<User, 'email' | 'passwordHash' | 'confirmedAt' | 'googleSubject'>): Promise<User | null>;
  abstract update(id: string, changes: Partial<Pick<User, 'passwordHash' | 'confirmedAt' | 'googleSubject'>>): Promise<void>;
  /** The account confirmed first (the local try-out's admin), or null while none is. */
  abstract firstConfirmedId(): Promise<string | null>;
  /** id -> email of these accounts. */
  abstract emailsOf(ids: string[]): Promise<Map<string, string>>;
}

export abstract class SessionRepository {
  abstract create(session: Pick<Session, 'userId' | 'tokenHash' | 'expiresAt'>, now: Date): Promise<Session>;
  abstract findByTokenHash(tokenHash: string): Promise<Session | null>;
  abstract touch(id: string, at: Date): Promise<void>;
  /** Revokes the session with this token hash unless already revoked; true when it did. */
  abstract revokeByTokenHash(tokenHash: string, at: Date): Promise<boolean>;
  /** Revokes every live session of the user except `keep`; returns how many. */
  abstract revokeAllOf(userId: string, at: Date, keep?: string): Promise<number>;
}

export abstract class OneTimeTokenRepository {
  abstract create(token: Pick<OneTimeToken, 'userId' | 'purpose' | 'tokenHash' | 'expiresAt'>, now: Date): Promise<void>;
  /**
   * Marks the token used if it exists for this purpose, is unused and unexpired, in one atomic
   * step (two concurrent uses: one wins). Returns its user id, or null.
   */
  abstract consume(tokenHash: string, purpose: TokenPurpose, now: Date): Promise<string | null>;
}

/** Password hashing (argon2id). `verifyDummy` spends the same time as a real verify for unknown emails. */
export abstract class PasswordHasher {
  abstract hash(password: string): Promise<string>;
  abstract verify(hash: string, password: string): Promise<boolean>;
  abstract verifyDummy(password: string): Promise<void>;
}

/** Short-lived counters shared by every web process (Redis when configured). */
export abstract class AttemptLimiter {
  /** Counts one attempt under `key`; when over `max` in the window, returns the seconds to wait. */
  abstract hit(key: string, max: number, windowMs: number): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }>;
  /** The attempts counted under `key` in its current window (0 when none), and the seconds until it ends. */
  abstract peek(key: string): Promise<{ count: number; retryAfterSeconds: number }>;
  /**
   * Runs `work` while holding `key`'s lock, shared by every web process (Redis; this process's
   * memory without it): calls with one key run one at a time, in arrival order or close to it.
   */
  abstract exclusive<T>(key: string, work: () => Promise<T>): Promise<T>;
  /** Forgets `key`'s attempts (a success). */
  abstract clear(key: string): Promise<void>;
}
