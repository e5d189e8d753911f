import { Injectable } from '@nestjs/common';
import { GuideViewLog } from '../domain/guide-view-log.port';
import { GuideViewTally } from '../domain/guide-view-tally';

/**
 * Guide page views: counted in memory as pages are served (the SSR module says which responses are
 * views), written by flush() every GUIDE_VIEWS_FLUSH_MS and at shutdown, so a view never costs a
 * database write of its own.
 */
@Injectable()
export class GuideViews {
  private readonly tally = new GuideViewTally();

  constructor(private readonly log: GuideViewLog) {}

  count(level: number, at = Date.now()): void {
    this.tally.add(level, at);
  }

  /** Writes what was counted; returns how many views. A failed write keeps them for the next flush. */
  async flush(): Promise<number> {
    const counts = this.tally.drain();
    if (!counts.length) return 0;
    try {
      await this.log.add(counts);
    } catch (error) {
      this.tally.restore(counts);
      throw error;
    }
    return counts.reduce((sum, count) => sum + count.views, 0);
  }
}
