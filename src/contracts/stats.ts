import type { Difficulty } from './levels';

/** What the site holds, for /admin/stats: published guides by difficulty and blog posts. */
export interface SiteStats {
  guides: Record<Difficulty | 'all', number>;
  posts: number;
}
