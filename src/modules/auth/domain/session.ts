/**
 * A signed-in browser or client. The bearer token itself is never stored: only its SHA-256, so a
 * database leak gives no usable token. A session ends when revoked, after `idle` without use, or at
 * its absolute expiry, whichever comes first.
 */
export class Session {
  id!: string;
  userId!: string;
  tokenHash!: string;
  createdAt!: Date;
  lastUsedAt!: Date;
  expiresAt!: Date;
  revokedAt!: Date | null;
}

/** Recording every request's use would write on every request; a minute's precision is plenty. */
export const TOUCH_AFTER_MS = 60_000;

export function isSessionLive(session: Session, now: Date, idleMs: number): boolean {
  return (
    session.revokedAt === null &&
    now.getTime() < session.expiresAt.getTime() &&
    now.getTime() < session.lastUsedAt.getTime() + idleMs
  );
}
