import { STEPS_QUERY } from 'src/contracts/levels';
import { definePage } from 'web/lib/router/page';
import hardestLoader from 'web/features/levels/hardest.loader';
import homeLoader from 'web/features/levels/home.loader';
import levelLoader from 'web/features/levels/level.loader';
import levelsLoader from 'web/features/levels/levels.loader';

export const home = definePage({
  id: 'home',
  path: '/',
  page: () => import('web/features/levels/home.page'),
  loader: homeLoader,
  sections: ['levels'],
  cache: true,
  sitemap: 'always',
});

export const levels = definePage({
  id: 'levels',
  path: '/levels',
  page: () => import('web/features/levels/levels.page'),
  loader: levelsLoader,
  sections: ['levels'],
  cache: true,
  query: ['level', 'difficulty', 'query', 'page'],
  sitemap: 'always',
});

/** Where players get stuck longest: the hard guides, longest first. */
export const hardest = definePage({
  id: 'hardest',
  path: '/levels/hardest',
  page: () => import('web/features/levels/hardest.page'),
  loader: hardestLoader,
  sections: ['levels'],
  cache: true,
  sitemap: 'always',
});

export const level = definePage({
  id: 'level',
  path: '/levels/:id',
  page: () => import('web/features/levels/level.page'),
  loader: levelLoader,
  sections: ['levels'],
  cache: true,
  query: [STEPS_QUERY],
  sample: '/levels/27',
});

/**
 * A number in range with no guide yet: the level loader shows this page instead (a PageVariant),
 * so a guide page does not download it. Never matched itself: `level` above takes the path first.
 */
export const levelMissing = definePage({
  id: 'level-missing',
  path: '/levels/:id',
  page: () => import('web/features/levels/level-missing.page'),
  cache: true,
  // Shown by `level`'s loader, which reads it.
  query: [STEPS_QUERY],
  sample: '/levels/15',
});
