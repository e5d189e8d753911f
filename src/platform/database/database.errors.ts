import { ConnectionException, DriverException } from '@mikro-orm/core';
import { AppError } from 'src/platform/errors/app-error';

/** Sent as Retry-After: long enough for a restart or failover to finish, short enough to retry by hand. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The database cannot be reached now (down, restarting, network cut, pool exhausted): try again shortly. */
export class DatabaseUnavailableError extends AppError {
  readonly code = 'DATABASE.UNAVAILABLE';
  readonly kind = 'unavailable';
  readonly retryAfterSeconds = DATABASE_RETRY_AFTER_SECONDS;

  constructor(options?: { cause?: unknown }) {
    super('The database is not reachable', ['The site is briefly unavailable; try again in a few seconds']);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

// Socket failures (the pg driver passes them on as they are, MikroORM copies their code).
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// SQLSTATE: class 08 (connection exception), 57P01-57P03 (the server shuts down or is starting), 53300 (too many connections).
const SQLSTATES = /^(08[0-9A-Z]{3}|57P0[1-3]|53300)$/;
// The pg driver's and pool's own messages for a lost or impossible connection.
const PG_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/;

/**
 * Whether an error means the database is unreachable, as opposed to a bug or a bad query: MikroORM's
 * ConnectionException, or a pg or MikroORM error carrying a connection failure, also as a cause.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof DatabaseUnavailableError || current instanceof ConnectionException) return true;
    const { code, syscall } = current as { code?: unknown; syscall?: unknown };
    if (typeof code === 'string' && SQLSTATES.test(code) && (current instanceof DriverException || 'severity' in current)) return true;
    // A bare socket error counts only from the driver (MikroORM's wrapper) or as the outermost error
    // (pg's own); elsewhere (an HTTP client's cause, say) it is some other service's.
    if (typeof code === 'string' && NETWORK_CODES.has(code) && (current instanceof DriverException || (depth === 0 && typeof syscall === 'string'))) return true;
    if (PG_MESSAGES.test(current.message)) return true;
  }
  return false;
}
