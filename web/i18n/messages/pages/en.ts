import auth from 'web/features/auth/auth.messages';
import billing from 'web/features/billing/billing.messages';
import content from 'web/features/content/content.messages';
import guideReports from 'web/features/guide-reports/guide-reports.messages';
import imageTool from 'web/features/image-tool/image-tool.messages';
import levels from 'web/features/levels/levels.messages';
import offline from 'web/features/offline/offline.messages';
import progress from 'web/features/progress/progress.messages';
import search from 'web/features/search/search.messages';

/**
 * The English copy of the pages other than the level guide (levels list, content pages, home,
 * download, media, explore, blog, accounts, pricing, payment, billing, usage, the image tool): a
 * catalogue part of its own, so it loads with those pages rather than with the entry every page downloads (see
 * web/i18n/page-messages.ts). Same rules as messages/en.ts: grouped by page, spec copy exact,
 * {name} filled in at run time.
 *
 * Each feature keeps its pages' copy in web/features/<feature>/<feature>.messages.ts; this file
 * joins them, with the copy of the shared components, into the one catalogue part.
 */
const pages = {
  ...levels,
  // Shared components: page links, post lists, the account pages' loading states.
  'pagination.label': 'Pages',
  'pagination.page': 'Page {page}',

  'posts.noneFound': 'No articles found',

  'account.loading': 'Loading…',
  'account.loadFailed': 'This could not be loaded.',
  'account.retry': 'Try again',
  'paging.previous': 'Previous',
  'paging.next': 'Next',
  'paging.page': 'Page {page} of {pages}',
  ...content,
  ...auth,
  ...billing,
  ...imageTool,
  ...guideReports,
  ...progress,
  ...search,
  ...offline,
} as const;

export default pages;
