import { createHash, createHmac, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: session tokens and emailed link tokens. */
export const newSecret = () => randomBytes(32).toString('base64url');

/** What is stored instead of a secret. Secrets are random, so a fast hash is enough (no salt needed). */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** A secret as issued by newSecret: anything else is refused before touching the database. */
export const looksLikeSecret = (value: unknown): value is string => typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);

/**
 * The secret of an emailed link, derived from its row id with AUTH_SECRET (43 characters, like
 * newSecret), so the live link can be mailed again without keeping it: only its hash is stored.
 */
export const linkSecret = (key: string, tokenId: string) => createHmac('sha256', key).update(`one-time-token:${tokenId}`).digest('base64url');
