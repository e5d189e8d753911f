import { randomUUID } from 'node:crypto';
import { hashSecret } from '../domain/secrets';
import type { Session } from '../domain/session';
import { SessionRepository } from '../domain/session-repository.port';

/** Sessions in memory, for specs: conditional revokes and touches like the SQL adapter's. */
export class InMemorySessionRepository extends SessionRepository {
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
