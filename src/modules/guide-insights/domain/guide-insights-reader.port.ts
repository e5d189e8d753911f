import type { LadderStops, NotHelpfulReasons } from 'src/contracts/guide-insights';
import type { Difficulty } from 'src/contracts/levels';
import type { GuideMeasures, OrderTerm } from './guide-order';

/** One published guide with what players said and did about it. */
export interface GuideInsightRecord extends GuideMeasures {
  title: string;
  difficulty: Difficulty;
  helpfulVotes: number;
  notHelpfulReasons: NotHelpfulReasons;
}

/** The read model of /admin/guides: every published guide's counts, sorted and paged in the database. */
export abstract class GuideInsightsReader {
  /** Views "recent" are those on `recentSince` (YYYY-MM-DD, UTC) or later. */
  abstract page(order: readonly OrderTerm[], recentSince: string, limit: number, offset: number): Promise<{ rows: GuideInsightRecord[]; total: number }>;
  /** Where players stopped on the ladders of these guides, by level (every ladder of each, counted or not). */
  abstract ladderStops(levels: number[]): Promise<Map<number, LadderStops[]>>;
}
