export type TokenPurpose = 'account_confirm' | 'password_reset' | 'sign_in_link';

/** How long an emailed link works. */
export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  account_confirm: 24 * 60 * 60 * 1000,
  password_reset: 60 * 60 * 1000,
  sign_in_link: 15 * 60 * 1000,
};

/** The secret of an emailed link (confirmation, password reset): single use, expiring, stored hashed. */
export class OneTimeToken {
  id!: string;
  userId!: string;
  purpose!: TokenPurpose;
  tokenHash!: string;
  createdAt!: Date;
  expiresAt!: Date;
  usedAt!: Date | null;
}
