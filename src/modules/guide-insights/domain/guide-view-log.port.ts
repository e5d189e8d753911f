import type { GuideViewCount } from './guide-view-tally';

/** Where guide views are kept, per level per UTC day. */
export abstract class GuideViewLog {
  /**
   * Adds the counts to those stored (several processes write their own counts, which add up);
   * counts for a level without a published guide are dropped.
   */
  abstract add(counts: readonly GuideViewCount[]): Promise<void>;
}
