import auth from 'web/features/auth/auth.messages';
import billing from 'web/features/billing/billing.messages';
import guideReports from 'web/features/guide-reports/guide-reports.messages';
import imageTool from 'web/features/image-tool/image-tool.messages';

/**
 * The English copy of the account pages (sign-in, sign-up, the account, unsubscribe), pricing,
 * payments, billing and usage, the image tool and the guide report form: the catalogue's third part,
 * loaded with those pages only (web/i18n/account-messages.ts). The home page, the level lists and
 * the blog never download it: it is two thirds of the page prose. Same rules as messages/en.ts.
 *
 * Each feature keeps its pages' copy in web/features/<feature>/<feature>.messages.ts; this file
 * joins them.
 */
const account = {
  ...auth,
  ...billing,
  ...imageTool,
  ...guideReports,
} as const;

export default account;
