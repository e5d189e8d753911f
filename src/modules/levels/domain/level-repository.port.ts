import type { Difficulty, LevelListQuery, LevelSummary, Walkthrough } from 'src/contracts/levels';
import type { RankedHits, SearchTerms } from 'src/contracts/search';
import type { Level, LevelGuide } from './level';


export interface ImportSummary {
  created: number;
  updated: number;
  unchanged: number;
  unpublished: number;
}

export interface LevelPage {
  levels: LevelSummary[];
  total: number;
}

/** A page of the list with the counts per difficulty of the whole text query (the filter's numbers). */
export interface LevelListPage extends LevelPage {
  counts: Record<Difficulty | 'all', number>;
}

/** What the level page shows: the guide (or null), its neighbours and the helpfulness answers so far. */
export interface LevelPageRow {
  level: Level | null;
  prev?: LevelSummary;
  next?: LevelSummary;
  feedback: { helpful: number; notHelpful: number };
}

export abstract class LevelRepository {
  abstract findPublished(number: number): Promise<Level | null>;
  /** The published level (or null), its neighbours and its helpfulness answers, in one round trip: the level page's hot path. */
  abstract findPage(number: number): Promise<LevelPageRow>;
  /** A page of the list (filtered by difficulty and text) and the counts per difficulty for the text alone, in one round trip. */
  abstract list(query: LevelListQuery, pageSize: number): Promise<LevelListPage>;
  /** The hard guides, longest reference time first (then by number), at most `limit`, with how many there are. */
  abstract hardest(limit: number): Promise<LevelPage>;
  abstract sitemapEntries(): Promise<{ number: number; title: string; updatedAt: Date; video?: Walkthrough }[]>;
  /** The most recently changed guides, newest first (then by number), at most `limit`: the feed. */
  abstract recentlyUpdated(limit: number): Promise<{ number: number; title: string; updatedAt: Date }[]>;
  abstract featured(numbers: number[]): Promise<LevelSummary[]>;
  /** The published guides' numbers as runs of consecutive numbers, ascending: [[1, 5], [7, 7]]. */
  abstract publishedRuns(): Promise<[number, number][]>;
  /** featured(numbers) and publishedRuns() in one round trip: what the home page shows. */
  abstract featuredAndRuns(numbers: number[]): Promise<{ featured: LevelSummary[]; runs: [number, number][] }>;
  /** Published guides matching the terms (and the level they name by number), best first, at most `limit`. */
  abstract search(terms: SearchTerms, limit: number): Promise<RankedHits<{ number: number; difficulty: Difficulty }>>;
  /**
   * Makes the published set exactly `guides`, in one transaction under a lock: new files are
   * inserted, changed ones updated, unchanged ones left alone, missing ones unpublished.
   */
  abstract replaceAll(guides: LevelGuide[], contentHash: string, now: Date): Promise<ImportSummary>;
}
