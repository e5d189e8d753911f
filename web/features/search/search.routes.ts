import { definePage } from 'web/lib/router/page';
import searchLoader from 'web/features/search/search.loader';

/** One search over guides, posts and pages; cached per query like any page (the header box's target). */
export const search = definePage({
  id: 'search',
  path: '/search',
  page: () => import('web/features/search/search.page'),
  loader: searchLoader,
  sections: ['search'],
  cache: true,
  query: ['q'],
  // Audited and rendered with results (the accessibility test, the route-table spec).
  sample: '/search?q=brass+key',
});
