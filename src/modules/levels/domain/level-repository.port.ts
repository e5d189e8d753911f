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

export abstract class LevelRepository {
  abstract findPublished(number: number): Promise<Level | null>;
  /** The published level (or null) and its neighbours, in one round trip: the level page's hot path. */
  abstract findWithNeighbours(number: number): Promise<{ level: Level | null; prev?: LevelSummary; next?: LevelSummary }>;
  abstract list(query: LevelListQuery, pageSize: number): Promise<LevelPage>;
  abstract countByDifficulty(text?: string): Promise<Record<'easy' | 'medium' | 'hard' | 'all', number>>;
  /** The hard guides, longest reference time first (then by number), at most `limit`, with how many there are. */
  abstract hardest(limit: number): Promise<LevelPage>;
  abstract sitemapEntries(): Promise<{ number: number; title: string; updatedAt: Date; video?: Walkthrough }[]>;
  /** The most recently changed guides, newest first (then by number), at most `limit`: the feed. */
  abstract recentlyUpdated(limit: number): Promise<{ number: number; title: string; updatedAt: Date }[]>;
  abstract featured(numbers: number[]): Promise<LevelSummary[]>;
  /** The published guides' numbers as runs of consecutive numbers, ascending: [[1, 5], [7, 7]]. */
  abstract publishedRuns(): Promise<[number, number][]>;
  /** Published guides matching the terms (and the level they name by number), best first, at most `limit`. */
  abstract search(terms: SearchTerms, limit: number): Promise<RankedHits<{ number: number; difficulty: Difficulty }>>;
  /**
   * Makes the published set exactly `guides`, in one transaction under a lock: new files are
   * inserted, changed ones updated, unchanged ones left alone, missing ones unpublished.
   */
  abstract replaceAll(guides: LevelGuide[], contentHash: string, now: Date): Promise<ImportSummary>;
}
