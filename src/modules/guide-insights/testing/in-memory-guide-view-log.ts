import { GuideViewLog } from '../domain/guide-view-log.port';
import type { GuideViewCount } from '../domain/guide-view-tally';

/** The guide_views table as one process sees it: each write adds to what is stored, as the SQL upsert does. */
export class InMemoryGuideViewLog extends GuideViewLog {
  readonly stored = new Map<string, number>();
  writes = 0;
  /** The next write fails, as with the database away. */
  failNext = false;
  /** A write that takes its time: views counted while it runs go to the next flush. */
  hold?: Promise<void>;

  async add(counts: readonly GuideViewCount[]): Promise<void> {
    this.writes++;
    await this.hold;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('database away');
    }
    for (const { level, day, views } of counts) this.stored.set(`${level} ${day}`, (this.stored.get(`${level} ${day}`) ?? 0) + views);
  }
}
