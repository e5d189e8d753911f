/** The error log's public face: grouped errors as a service, its port and types. No Nest wiring. */
export { ErrorLogService } from './application/error-log.service';
export { ErrorReportRepository } from './domain/error-report-repository.port';
export type { ErrorOccurrence, ErrorReport } from './domain/error-report';
