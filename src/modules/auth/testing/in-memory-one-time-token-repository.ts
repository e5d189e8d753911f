import { hashSecret } from '../domain/secrets';
import type { OneTimeToken, TokenPurpose } from '../domain/one-time-token';
import { OneTimeTokenRepository } from '../domain/one-time-token-repository.port';

/** Emailed link tokens in memory, for specs: single use, honouring expiresAt against the `now` passed in. */
export class InMemoryOneTimeTokenRepository extends OneTimeTokenRepository {
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
    const token = this.rows.find((t) => t.tokenHash === tokenHash && t.purpose === purpose && t.usedAt === null && t.expiresAt.getTime() > now.getTime());
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
