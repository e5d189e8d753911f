import type { LadderStops } from 'src/contracts/guide-insights';
import { GuideInsightsReader, type GuideInsightRecord } from '../domain/guide-insights-reader.port';
import type { OrderTerm } from '../domain/guide-order';

/**
 * The /admin/guides read model over records a spec gives, sorted by the order's terms as the SQL
 * sorts (a missing helpful ratio last, whichever the direction) and paged. The aggregate query
 * over the other modules' tables is proven by test/guide-insights.int-spec.ts. Where players
 * stopped on each guide's ladders is what the spec puts in `stops` (by level).
 */
export class InMemoryGuideInsightsReader extends GuideInsightsReader {
  readonly asked: { order: readonly OrderTerm[]; recentSince: string }[] = [];

  constructor(
    readonly records: GuideInsightRecord[] = [],
    readonly stops = new Map<number, LadderStops[]>(),
  ) {
    super();
  }

  async ladderStops(levels: number[]) {
    return new Map(levels.flatMap((level) => (this.stops.has(level) ? [[level, this.stops.get(level)!] as const] : [])));
  }

  async page(order: readonly OrderTerm[], recentSince: string, limit: number, offset: number) {
    this.asked.push({ order, recentSince });
    const compare = (a: GuideInsightRecord, b: GuideInsightRecord) => {
      for (const { measure, dir } of order) {
        const [x, y] = [a[measure], b[measure]];
        if (x === y) continue;
        if (x === null) return 1;
        if (y === null) return -1;
        return dir === 'asc' ? x - y : y - x;
      }
      return 0;
    };
    const sorted = [...this.records].sort(compare);
    return { rows: sorted.slice(offset, offset + limit), total: sorted.length };
  }
}
