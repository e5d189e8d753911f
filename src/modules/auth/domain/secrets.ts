import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: session tokens and emailed link tokens. */
export const newSecret = () => randomBytes(32).toString('base64url');

/** What is stored instead of a secret. Secrets are random, so a fast hash is enough (no salt needed). */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** A secret as issued by newSecret: anything else is refused before touching the database. */
export const looksLikeSecret = (value: unknown): value is string => typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
