import * as auth from 'web/features/auth/auth.routes';
import * as billing from 'web/features/billing/billing.routes';
import * as content from 'web/features/content/content.routes';
import * as guideInsights from 'web/features/guide-insights/guide-insights.routes';
import * as guideReports from 'web/features/guide-reports/guide-reports.routes';
import * as imageTool from 'web/features/image-tool/image-tool.routes';
import * as levels from 'web/features/levels/levels.routes';
import * as offline from 'web/features/offline/offline.routes';
import * as ops from 'web/features/ops/ops.routes';
import * as progress from 'web/features/progress/progress.routes';
import * as search from 'web/features/search/search.routes';
import type { PageRoute } from 'web/lib/router/page';
import { indexRoutes } from 'web/lib/router/route-index';

/**
 * Every page of the site, one route object each (declared in its feature's *.routes.ts), first
 * match wins: a page is added here with one line. The last two catch any content page by slug,
 * then every other path (404). Sitemap order is this order.
 */
export const PAGES = [
  levels.home,
  levels.levels,
  levels.hardest,
  levels.level,
  levels.levelMissing,
  guideReports.guideReport,
  search.search,
  content.blog,
  content.post,
  content.category,
  content.month,
  content.detail,
  content.faq,
  content.download,
  content.media,
  content.explore,
  auth.authLogin,
  auth.authSignUp,
  auth.authEmailVerifications,
  auth.authConfirm,
  auth.authSignInLink,
  auth.authForgotPassword,
  auth.authPasswordReset,
  auth.account,
  auth.accountUnsubscribe,
  billing.pricing,
  billing.testCheckout,
  billing.paymentSuccess,
  billing.billing,
  billing.receipt,
  billing.usage,
  imageTool.imageTool,
  progress.progress,
  offline.offline,
  ops.admin,
  guideInsights.adminGuides,
  ops.adminErrors,
  ops.adminOrders,
  ops.adminOrder,
  ops.adminQueues,
  content.contentPage,
  content.notFound,
] satisfies PageRoute[];

// The table's ids are the type RouteId (web/lib/router/page.ts): an id written elsewhere is checked against them.
declare module 'web/lib/router/page' {
  interface RouteRegister {
    id: (typeof PAGES)[number]['id'];
  }
}

export const { colorModeOf, loadPage, loadedPage } = indexRoutes(PAGES);
