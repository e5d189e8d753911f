import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { TokenPurpose } from '../../domain/one-time-token';
import { OneTimeTokenRepository } from '../../domain/one-time-token-repository.port';
import { OneTimeTokenSchema } from './auth.entities';

@Injectable()
export class MikroOrmOneTimeTokenRepository extends OneTimeTokenRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async create(data: { id: string; userId: string; purpose: TokenPurpose; tokenHash: string; expiresAt: Date }, now: Date): Promise<void> {
    const em = this.em.fork();
    em.create(OneTimeTokenSchema, { ...data, createdAt: now, usedAt: null });
    await em.flush();
  }

  async findLive(userId: string, purpose: TokenPurpose, now: Date): Promise<{ id: string; tokenHash: string } | null> {
    return this.em
      .fork()
      .findOne(
        OneTimeTokenSchema,
        { userId, purpose, usedAt: null, expiresAt: { $gt: now } },
        { fields: ['id', 'tokenHash'], orderBy: { createdAt: 'desc' } },
      );
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
