import { definePage } from 'web/lib/router/page';
import statsLoader from 'web/features/stats/stats.loader';

/** The site's numbers: admins only (anyone else gets the 404 of an unknown path), never cached. */
export const stats = definePage({
  id: 'admin-stats',
  path: '/admin/stats',
  module: 'web/features/stats/stats.page.tsx',
  page: () => import('web/features/stats/stats.page'),
  loader: statsLoader,
  sections: ['stats'],
  access: 'admin',
});
