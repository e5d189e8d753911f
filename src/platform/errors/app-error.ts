/**
 * The kinds of failure the HTTP layer knows how to answer. A module's error picks its kind; the
 * one mapping to HTTP statuses lives in AppErrorFilter.
 */
export type ErrorKind =
  | 'validation'
  | 'unauthorized'
  | 'payment_required'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'unsupported_media_type'
  | 'unavailable'
  | 'insufficient_storage';

/** Base class of every expected error. `code` is stable ('<MODULE>.<REASON>'); clients may match on it. */
export abstract class AppError extends Error {
  abstract readonly code: string;
  abstract readonly kind: ErrorKind;
  /** Extra fields of the JSON answer, beside errors and code (safe to show, like the details). */
  readonly extra?: Record<string, string | number | boolean>;

  constructor(
    message: string,
    /** Messages safe to show to the user; defaults to the error message. */
    readonly details: string[] = [message],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  readonly code = 'REQUEST.INVALID';
  readonly kind = 'validation';
}

export class NotFoundError extends AppError {
  readonly code = 'REQUEST.NOT_FOUND';
  readonly kind = 'not_found';
}

/** This client (its forwarded address) already holds HTTP_MAX_CONNECTIONS_PER_CLIENT connections. */
export class TooManyConnectionsError extends AppError {
  readonly code = 'HTTP.TOO_MANY_CONNECTIONS';
  readonly kind = 'rate_limited';
  readonly retryAfterSeconds = 5;
  constructor() {
    super('Too many open connections from your address. Please close some and try again.');
  }
}

/** The image upload route takes exactly a multipart form or JSON: an urlencoded form or text is neither. */
export class UploadBodyTypeError extends AppError {
  readonly code = 'REQUEST.UNSUPPORTED_BODY';
  readonly kind = 'unsupported_media_type';
  constructor() {
    super('Send the image as a multipart form (multipart/form-data) or its URL as JSON (application/json).');
  }
}

/** API writes take JSON (uploads multipart on their own routes): a cross-site HTML form cannot send it. */
export class JsonOnlyError extends AppError {
  readonly code = 'REQUEST.JSON_ONLY';
  readonly kind = 'unsupported_media_type';
  constructor() {
    super('Send the request body as JSON (content-type: application/json).');
  }
}

/**
 * A file write found the disk (or the quota) full: ENOSPC or EDQUOT from any file store, mapped here
 * once (toAppError) rather than in each store. 507, and retried later by the client.
 */
export class StorageFullError extends AppError {
  readonly code = 'STORAGE.FULL';
  readonly kind = 'insufficient_storage';
  readonly retryAfterSeconds = 60;

  constructor(options?: { cause?: unknown }) {
    super('The server has no room to store this now', ['The server is out of storage space; try again later']);
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/** Whether an error (or one it wraps, as `cause`) is a full disk or quota. */
export function isStorageFull(error: unknown): boolean {
  // Not instanceof Error: an fs error may come from another realm (a VM context, a worker thread).
  for (let e: unknown = error, depth = 0; typeof e === 'object' && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') return true;
  }
  return false;
}
