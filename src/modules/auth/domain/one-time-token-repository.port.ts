import type { OneTimeToken, TokenPurpose } from './one-time-token';

export abstract class OneTimeTokenRepository {
  abstract create(token: Pick<OneTimeToken, 'userId' | 'purpose' | 'tokenHash' | 'expiresAt'>, now: Date): Promise<void>;
  /**
   * Marks the token used if it exists for this purpose, is unused and unexpired, in one atomic
   * step (two concurrent uses: one wins). Returns its user id, or null.
   */
  abstract consume(tokenHash: string, purpose: TokenPurpose, now: Date): Promise<string | null>;
}
