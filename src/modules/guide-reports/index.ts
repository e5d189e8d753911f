/** Guide reports' public face: the reports service, its port, errors and types. No Nest wiring. */
export { GuideReportsService } from './application/guide-reports.service';
export { GuideReportRepository } from './domain/guide-report-repository.port';
export * from './domain/guide-reports.errors';
export type { GuideReport } from './domain/guide-report';
