import { Injectable } from '@nestjs/common';
import { ERROR_REPORT_LIMITS, type ClientErrorReport, type ErrorType } from 'src/contracts/error-report';
import type { ErrorGroupView } from 'src/contracts/ops';
import { cleanText, fingerprintOf, type ErrorOccurrence, type ErrorReport } from '../domain/error-report';
import { ErrorReportRepository } from '../domain/error-report-repository.port';
import { toErrorGroupView } from './error-group-view';

@Injectable()
export class ErrorLogService {
  constructor(private readonly reports: ErrorReportRepository) {}

  async recordClientReport({ error }: ClientErrorReport, now = new Date()): Promise<void> {
    const occurrence: ErrorOccurrence = {
      errorType: error.error_type,
      originType: error.origin_type,
      message: cleanText(error.message) ?? '(no message)',
      backtrace: cleanText(error.backtrace),
      userEmail: cleanText(error.user_email),
      path: cleanText(error.path),
      buildId: cleanText(error.build_id),
    };
    await this.reports.record(occurrence, fingerprintOf(occurrence), now);
  }

  /** A 5xx of the server: grouped like browser errors, with error type SERVER_ERROR. */
  async recordServerError(error: unknown, path: string, now = new Date()): Promise<void> {
    const e = error instanceof Error ? error : new Error(String(error));
    const occurrence: ErrorOccurrence = {
      errorType: 'SERVER_ERROR',
      originType: 0,
      message: cleanText(e.message)?.slice(0, ERROR_REPORT_LIMITS.message) ?? '(no message)',
      backtrace: cleanText(e.stack)?.slice(0, ERROR_REPORT_LIMITS.backtrace),
      path: cleanText(path)?.slice(0, ERROR_REPORT_LIMITS.path),
    };
    await this.reports.record(occurrence, fingerprintOf(occurrence), now);
  }

  /** The most recently seen groups first; only those of `types` when given (SERVER_ERROR: the server's own). */
  latest(limit: number, types?: readonly ErrorType[]): Promise<ErrorReport[]> {
    return this.reports.latest(limit, types);
  }

  /** The same, as the admin screens show them. */
  async latestViews(limit: number, types?: readonly ErrorType[]): Promise<ErrorGroupView[]> {
    return (await this.reports.latest(limit, types)).map(toErrorGroupView);
  }
}
