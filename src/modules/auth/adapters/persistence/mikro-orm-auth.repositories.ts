import { Injectable } from '@nestjs/common';
import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import type { TokenPurpose } from '../../domain/one-time-token';
import { OneTimeTokenRepository, SessionRepository, UserRepository } from '../../domain/ports';
import type { Session } from '../../domain/session';
import type { User } from '../../domain/user';
import { OneTimeTokenSchema, SessionSchema, UserSchema } from './auth.entities';

@Injectable()
export class MikroOrmUserRepository extends UserRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  findById(id: string): Promise<User | null> {
    return this.em.fork().findOne(UserSchema, { id });
  }

  findByEmail(email: string): Promise<User | null> {
    return this.em.fork().findOne(UserSchema, { email });
  }

  findByGoogleSubject(subject: string): Promise<User | null> {
    return this.em.fork().findOne(UserSchema, { googleSubject: subject });
  }

  async create(data: Pick<User, 'email' | 'passwordHash' | 'confirmedAt' | 'googleSubject'>): Promise<User | null> {
    const em = this.em.fork();
    const user = em.create(UserSchema, { ...data, createdAt: new Date() });
    try {
      await em.flush();
      return user;
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return null;
      throw error;
    }
  }

  async update(id: string, changes: Partial<Pick<User, 'passwordHash' | 'confirmedAt' | 'googleSubject'>>): Promise<void> {
    await this.em.fork().nativeUpdate(UserSchema, { id }, changes);
  }

  async firstConfirmedId(): Promise<string | null> {
    const [first] = await this.em.fork().find(UserSchema, { confirmedAt: { $ne: null } }, { orderBy: { confirmedAt: 'asc', createdAt: 'asc' }, limit: 1, fields: ['id'] });
    return first?.id ?? null;
  }

  async emailsOf(ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const users = await this.em.fork().find(UserSchema, { id: { $in: [...new Set(ids)] } }, { fields: ['id', 'email'] });
    return new Map(users.map((user) => [user.id, user.email]));
  }
}

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

@Injectable()
export class MikroOrmOneTimeTokenRepository extends OneTimeTokenRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async create(data: { userId: string; purpose: TokenPurpose; tokenHash: string; expiresAt: Date }, now: Date): Promise<void> {
    const em = this.em.fork();
    em.create(OneTimeTokenSchema, { ...data, createdAt: now, usedAt: null });
    await em.flush();
  }

  async consume(tokenHash: string, purpose: TokenPurpose, now: Date): Promise<string | null> {
    // One conditional UPDATE: of two concurrent uses of a link, exactly one gets the row back.
    const rows = await this.em.getConnection().execute<{ user_id: string }[]>(
      `update one_time_tokens set used_at = ?
        where token_hash = ? and purpose = ? and used_at is null and expires_at > ?
        returning user_id`,
      [now, tokenHash, purpose, now],
    );
    return rows[0]?.user_id ?? null;
  }
}
