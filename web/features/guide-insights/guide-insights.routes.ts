import { definePage } from 'web/lib/router/page';
import adminGuidesLoader from 'web/features/guide-insights/admin-guides.loader';

/** The content team's view of the guides: admins only (anyone else gets the 404 of an unknown path), never cached. */
export const adminGuides = definePage({
  id: 'admin-guides',
  path: '/admin/guides',
  page: () => import('web/features/guide-insights/admin-guides.page'),
  loader: adminGuidesLoader,
  sections: ['guideInsights'],
  access: 'admin',
  query: ['sort', 'dir', 'page'],
});
