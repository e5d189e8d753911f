import type { GuideSort, SortDirection } from 'src/contracts/guide-insights';
import { HELPFUL_SHARE_MIN_VOTES } from 'src/contracts/levels';

/** What one guide's row is sorted on. */
export interface GuideMeasures {
  level: number;
  openReports: number;
  /** Helpful answers over all answers; null below HELPFUL_SHARE_MIN_VOTES answers (too few to rank by). */
  helpfulRatio: number | null;
  votes: number;
  viewsRecent: number;
  viewsTotal: number;
  stuck: number;
  solved: number;
}

export type GuideMeasure = keyof GuideMeasures;

export interface OrderTerm {
  measure: GuideMeasure;
  dir: SortDirection;
}

/** The ratio sorted on (the page shows it rounded, as the guide page does), or null with too few answers. */
export const helpfulRatio = (helpful: number, votes: number): number | null => (votes >= HELPFUL_SHARE_MIN_VOTES ? helpful / votes : null);

/**
 * "Worst first": the guides players told us are wrong first (most open reports), then those the
 * fewest found helpful (among guides with enough answers to tell), then where most players are still
 * stuck, then the most read (a weak guide many people read matters more).
 */
const WORST: readonly OrderTerm[] = [
  { measure: 'openReports', dir: 'desc' },
  { measure: 'helpfulRatio', dir: 'asc' },
  { measure: 'stuck', dir: 'desc' },
  { measure: 'viewsRecent', dir: 'desc' },
];

const MEASURE_OF: Record<Exclude<GuideSort, 'worst'>, GuideMeasure> = {
  helpful: 'helpfulRatio',
  votes: 'votes',
  reports: 'openReports',
  views: 'viewsRecent',
  views_total: 'viewsTotal',
  stuck: 'stuck',
  solved: 'solved',
  level: 'level',
};

const BY_LEVEL: OrderTerm = { measure: 'level', dir: 'asc' };
const reversed = (term: OrderTerm): OrderTerm => ({ ...term, dir: term.dir === 'asc' ? 'desc' : 'asc' });

/**
 * The order of a sort: its measure in the direction asked, ties broken by the worst-first order,
 * then by level number. `worst` in `asc` is the exact reverse (the best first). A guide without
 * enough answers has no helpful ratio and comes after those that have one, whichever the direction.
 */
export function guideOrder(sort: GuideSort, dir: SortDirection): OrderTerm[] {
  if (sort === 'worst') return [...(dir === 'desc' ? WORST : WORST.map(reversed)), BY_LEVEL];
  const measure = MEASURE_OF[sort];
  if (measure === 'level') return [{ measure, dir }];
  return [{ measure, dir }, ...WORST.filter((term) => term.measure !== measure), BY_LEVEL];
}

/** The same order as a comparator: the rule the database's ORDER BY follows, stated once in code (and checked against it in the tests). */
export function compareGuides(order: readonly OrderTerm[]): (a: GuideMeasures, b: GuideMeasures) => number {
  return (a, b) => {
    for (const { measure, dir } of order) {
      const x = a[measure];
      const y = b[measure];
      if (x === y) continue;
      // Nulls last in both directions: no ratio is neither good nor bad.
      if (x === null) return 1;
      if (y === null) return -1;
      return dir === 'asc' ? x - y : y - x;
    }
    return 0;
  };
}
