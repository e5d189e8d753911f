import type { OneTimeToken, TokenPurpose } from './one-time-token';

export abstract class OneTimeTokenRepository {
  abstract create(token: Pick<OneTimeToken, 'id' | 'userId' | 'purpose' | 'tokenHash' | 'expiresAt'>, now: Date): Promise<void>;
  /** The newest unused, unexpired token of this user for this purpose (the link already in their mailbox), or null. */
  abstract findLive(userId: string, purpose: TokenPurpose, now: Date): Promise<Pick<OneTimeToken, 'id' | 'tokenHash'> | null>;
  /**
   * Marks the token used if it exists for this purpose, is unused and unexpired, in one atomic
   * step (two concurrent uses: one wins). Returns its user id, or null.
   */
  abstract consume(tokenHash: string, purpose: TokenPurpose, now: Date): Promise<string | null>;
}
