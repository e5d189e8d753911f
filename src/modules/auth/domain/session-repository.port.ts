import type { Session } from './session';

export abstract class SessionRepository {
  abstract create(session: Pick<Session, 'userId' | 'tokenHash' | 'expiresAt'>, now: Date): Promise<Session>;
  abstract findByTokenHash(tokenHash: string): Promise<Session | null>;
  abstract touch(id: string, at: Date): Promise<void>;
  /** Revokes the session with this token hash unless already revoked; true when it did. */
  abstract revokeByTokenHash(tokenHash: string, at: Date): Promise<boolean>;
  /** Revokes every live session of the user except `keep`; returns how many. */
  abstract revokeAllOf(userId: string, at: Date, keep?: string): Promise<number>;
}
