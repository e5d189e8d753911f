import { definePage } from 'web/lib/router/page';
import progressLoader from 'web/features/progress/progress.loader';

/** The player's own marks: drawn in the browser from localStorage, so the HTML is the same for everyone and cached. */
export const progress = definePage({
  id: 'progress',
  path: '/progress',
  page: () => import('web/features/progress/progress.page'),
  loader: progressLoader,
  sections: ['levels'],
  cache: true,
});
