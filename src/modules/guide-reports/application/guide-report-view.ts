import type { GuideReportView } from 'src/contracts/guide-reports';
import type { GuideReport } from '../domain/guide-report';

/** A report as the admin pages and API show it. */
export const toGuideReportView = (report: GuideReport): GuideReportView => ({
  id: report.id,
  level_number: report.levelNumber,
  kind: report.kind,
  message: report.message ?? null,
  created_at: report.createdAt.toISOString(),
  handled_at: report.handledAt?.toISOString() ?? null,
});
