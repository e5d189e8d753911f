import { definePage } from 'web/lib/router/page';
import guideReportLoader from 'web/features/guide-reports/guide-report.loader';

/** "Something wrong with this guide?": the report form of a guide (its own chunk, so not in a level page's first load). */
export const guideReport = definePage({
  id: 'guide-report',
  path: '/levels/:id/report',
  page: () => import('web/features/guide-reports/guide-report.page'),
  loader: guideReportLoader,
  sections: ['guideReports'],
  cache: true,
  sample: '/levels/27/report',
});
