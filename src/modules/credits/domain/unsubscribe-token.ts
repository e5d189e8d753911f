import { createHmac, timingSafeEqual } from 'node:crypto';
import { REMINDER_KINDS, type ReminderKind } from './reminder-store.port';

/**
 * A reminder mail's unsubscribe link works without signing in: it carries the account and the kind
 * of reminder, signed with AUTH_SECRET (HMAC-SHA-256), so nobody can forge one for another account.
 */
const signature = (key: string, userId: string, kind: ReminderKind) => createHmac('sha256', key).update(`unsubscribe:${userId}:${kind}`).digest('base64url');

export const unsubscribeToken = (key: string, userId: string, kind: ReminderKind) => `${userId}.${kind}.${signature(key, userId, kind)}`;

/** The account and kind of a genuine token; null for anything else. */
export function readUnsubscribeToken(key: string, token: string): { userId: string; kind: ReminderKind } | null {
  const [userId, kind, given, ...rest] = token.split('.');
  if (rest.length || !userId || !given || !/^[0-9a-f-]{36}$/i.test(userId) || !REMINDER_KINDS.includes(kind as ReminderKind)) return null;
  const expected = Buffer.from(signature(key, userId, kind as ReminderKind));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? { userId, kind: kind as ReminderKind } : null;
}
