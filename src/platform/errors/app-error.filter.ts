import { type ArgumentsHost, Catch, HttpException, Logger, Optional, type ExceptionFilter, type Provider } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseUnavailableError, isDatabaseUnavailable } from 'src/platform/database/database.errors';
import { OutageLog } from 'src/platform/logging/outage-log';
import { AppError, isStorageFull, StorageFullError, type ErrorKind } from './app-error';
import { ServerErrorSink } from './server-error-sink.port';

const STATUS: Record<ErrorKind, number> = {
  validation: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  unsupported_media_type: 415,
  unavailable: 503,
  insufficient_storage: 507,
};

export interface ErrorBody {
  errors: string[];
  code: string;
  [extra: string]: unknown;
}

/**
 * An error as the client hears of it: a database connection failure, wherever it was thrown, is
 * DATABASE.UNAVAILABLE (503, Retry-After), and a full disk STORAGE.FULL (507), rather than a server error.
 */
export function toAppError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error)) return new DatabaseUnavailableError({ cause: error });
  if (isStorageFull(error)) return new StorageFullError({ cause: error });
  return error;
}

/** Maps any thrown error to a JSON answer. Unknown errors are logged and answered without detail. */
export function toErrorResponse(thrown: unknown): { status: number; body: ErrorBody; unexpected: boolean; retryAfterSeconds?: number } {
  const error = toAppError(thrown);
  if (error instanceof AppError) {
    const { retryAfterSeconds } = error as { retryAfterSeconds?: number };
    const body = { ...error.extra, errors: error.details, code: error.code };
    return { status: STATUS[error.kind], body, unexpected: false, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const message = status >= 500 ? 'An error occurred' : error.message;
    return { status, body: { errors: [message], code: `HTTP.${status}` }, unexpected: status >= 500 };
  }
  // Fastify's own errors (body too large, bad JSON) carry a 4xx statusCode and a safe message.
  const fastifyStatus = (error as { statusCode?: unknown })?.statusCode;
  if (typeof fastifyStatus === 'number' && fastifyStatus >= 400 && fastifyStatus < 500) {
    const message = error instanceof Error ? error.message : 'Bad request';
    const code = fastifyStatus === 429 ? 'REQUEST.RATE_LIMITED' : `HTTP.${fastifyStatus}`;
    return { status: fastifyStatus, body: { errors: [message], code }, unexpected: false };
  }
  return { status: 500, body: { errors: ['An error occurred'], code: 'INTERNAL' }, unexpected: true };
}

/** The one place errors become HTTP responses. No stack, SQL or secret ever reaches the client. */
@Catch()
export class AppErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');
  private readonly storageOutage = new OutageLog(this.logger, 'Storage (file writes)');

  constructor(@Optional() private readonly sink?: ServerErrorSink) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const reply = ctx.getResponse<FastifyReply>();
    const request = ctx.getRequest<FastifyRequest>();
    const { status, body, unexpected, retryAfterSeconds } = toErrorResponse(error);
    const path = request.url.split('?')[0]!;
    if (unexpected) {
      this.logger.error({ err: error, path }, 'Unhandled error');
      // Server 5xx land in the same store as browser errors; a failure to record only logs.
      this.sink?.record(error, path).catch((e: unknown) => this.logger.warn({ err: e }, 'Could not record the error'));
    } else if (body.code === 'DATABASE.UNAVAILABLE') {
      // An outage, not a bug: one line, and nothing for the error store (it is in the same database).
      this.logger.warn({ path, cause: describeCause(error) }, 'Database unavailable: answered 503');
    } else if (body.code === 'STORAGE.FULL') {
      // A full disk fails every upload alike: named once, then at most once a minute.
      this.storageOutage.failed(`no space left (${describeCause(error)}): answered 507 ${path}`);
    }
    const retryAfter = retryAfterSeconds ?? (error as { retryAfterSeconds?: number }).retryAfterSeconds;
    if (retryAfter) void reply.header('retry-after', String(retryAfter));
    void reply.status(status).header('cache-control', 'no-store').send(body);
  }
}

/** The error's class, code and message, without its stack: enough to tell a refusal from a timeout. */
function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message.split('\n')[0]}`;
}

/** The filter bound for every route of an app (the web process's AppModule, the controller specs). */
export const APP_ERROR_FILTER: Provider = { provide: APP_FILTER, useClass: AppErrorFilter };
