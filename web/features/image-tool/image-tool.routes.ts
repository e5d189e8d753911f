import { definePage } from 'web/lib/router/page';
import paymentsOnLoader from 'web/features/billing/payments-on.loader';

/** The image tool (404 while payments are off); the user's jobs load in the browser. */
export const imageTool = definePage({
  id: 'image-tool',
  path: '/tools/image',
  page: () => import('web/features/image-tool/image-tool.page'),
  loader: paymentsOnLoader,
  cache: true,
  sitemap: 'with-payments',
});
