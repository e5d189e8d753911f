import { createHash } from 'node:crypto';

/**
 * A sync cursor: the account's revision when it answered (each sync that changes an entry raises
 * it by one), with a tag of the account so that a cursor a browser kept from another account's
 * session is refused instead of read as this account's history. Opaque to the browser.
 */
const tagOf = (userId: string) => createHash('sha256').update(`progress-cursor:${userId}`).digest('base64url').slice(0, 12);

export const syncCursor = (userId: string, revision: number): string => `${tagOf(userId)}.${revision}`;

/** The revision a cursor names, or null when it is not one of this account's. */
export function cursorRevision(cursor: string, userId: string): number | null {
  const [tag, revision, ...rest] = cursor.split('.');
  if (rest.length || tag !== tagOf(userId) || !/^\d{1,15}$/.test(revision ?? '')) return null;
  return Number(revision);
}
