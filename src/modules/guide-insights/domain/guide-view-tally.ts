/** The views of one guide on one UTC day. */
export interface GuideViewCount {
  level: number;
  /** YYYY-MM-DD, UTC. */
  day: string;
  views: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day of a moment, YYYY-MM-DD. */
export const utcDay = (at: number): string => new Date(Math.floor(at / DAY_MS) * DAY_MS).toISOString().slice(0, 10);

/**
 * Guide page views counted in this process's memory until they are written: counting a view is a
 * map update, never a database write. Bounded by the guides viewed per day between two writes.
 */
export class GuideViewTally {
  /** Day (days since 1970, UTC) → level → views. */
  private counts = new Map<number, Map<number, number>>();

  add(level: number, at: number): void {
    const day = Math.floor(at / DAY_MS);
    let levels = this.counts.get(day);
    if (!levels) this.counts.set(day, (levels = new Map()));
    levels.set(level, (levels.get(level) ?? 0) + 1);
  }

  /** Everything counted so far; the tally starts again from nothing. The caller writes it, or gives it back. */
  drain(): GuideViewCount[] {
    const drained: GuideViewCount[] = [];
    for (const [day, levels] of this.counts) {
      const date = utcDay(day * DAY_MS);
      for (const [level, views] of levels) drained.push({ level, day: date, views });
    }
    this.counts = new Map();
    return drained;
  }

  /** Counts whose write failed, added back to what came in meanwhile: the next write carries them. */
  restore(counts: readonly GuideViewCount[]): void {
    for (const { level, day, views } of counts) {
      const key = Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
      let levels = this.counts.get(key);
      if (!levels) this.counts.set(key, (levels = new Map()));
      levels.set(level, (levels.get(level) ?? 0) + views);
    }
  }
}
