import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { Session } from '../../domain/session';
import { SessionRepository } from '../../domain/session-repository.port';
import { SessionSchema } from './auth.entities';

@Injectable()
export class MikroOrmSessionRepository extends SessionRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async create(data: Pick<Session, 'userId' | 'tokenHash' | 'expiresAt'>, now: Date): Promise<Session> {
    const em = this.em.fork();
    const session = em.create(SessionSchema, { ...data, createdAt: now, lastUsedAt: now, revokedAt: null });
    await em.flush();
    return session;
  }

  findByTokenHash(tokenHash: string): Promise<Session | null> {
    return this.em.fork().findOne(SessionSchema, { tokenHash });
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.em.fork().nativeUpdate(SessionSchema, { id, revokedAt: null }, { lastUsedAt: at });
  }

  async revokeByTokenHash(tokenHash: string, at: Date): Promise<boolean> {
    return (await this.em.fork().nativeUpdate(SessionSchema, { tokenHash, revokedAt: null }, { revokedAt: at })) > 0;
  }

  revokeAllOf(userId: string, at: Date, keep?: string): Promise<number> {
    return this.em.fork().nativeUpdate(SessionSchema, { userId, revokedAt: null, ...(keep ? { id: { $ne: keep } } : {}) }, { revokedAt: at });
  }
}
