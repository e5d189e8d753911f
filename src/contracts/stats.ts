import type { Difficulty } from './levels';

/** What the site holds, for /admin/stats: published guides by difficulty and blog posts. */
export interface SiteStats {
  guides: Record<Difficulty | 'all', number>;
  posts: number;
}

/** Stats' section of the page data (src/modules/stats/adapters/pages/stats.pages.ts): /admin/stats. */
export interface StatsPages {
  overview(): Promise<SiteStats>;
}

// Adds the section to PageData without editing page-data.ts (declaration merging): see PageData.
declare module './page-data' {
  interface PageData {
    readonly stats: StatsPages;
  }
}
