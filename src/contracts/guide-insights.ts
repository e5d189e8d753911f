import type { GuideReportView } from './guide-reports';
import type { Difficulty, FeedbackReason } from './levels';

/**
 * /admin/guides and GET /api/v1/admin/guides (admins only): every published guide with what players
 * said and did, and the most requested levels without a guide. Field names follow the admin API.
 */

/** What the guides can be sorted by (`?sort=`); `worst` is the default. */
export const GUIDE_SORTS = ['worst', 'helpful', 'votes', 'reports', 'views', 'views_total', 'stuck', 'solved', 'level'] as const;
export type GuideSort = (typeof GUIDE_SORTS)[number];
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/** Each sort's direction when `?dir=` is not given: the worst or the most first (the lowest helpful share, the most reports...). */
export const DEFAULT_DIRECTION: Record<GuideSort, SortDirection> = {
  worst: 'desc',
  helpful: 'asc',
  votes: 'desc',
  reports: 'desc',
  views: 'desc',
  views_total: 'desc',
  stuck: 'desc',
  solved: 'desc',
  level: 'asc',
};

/** Guides per page: the catalogue may hold thousands. */
export const GUIDES_PAGE_SIZE = 50;
/** Open reports listed under a guide at most, newest first (the count says how many there are). */
export const OPEN_REPORTS_SHOWN = 10;
/** "Views in the last N days" on the page, beside the total. */
export const RECENT_VIEW_DAYS = 30;

export interface GuideInsightsQuery {
  sort: GuideSort;
  dir: SortDirection;
  page: number;
}

const isOneOf = <T extends string>(list: readonly T[], value: string | null | undefined): value is T => !!value && (list as readonly string[]).includes(value);

/** The page's query from its URL: anything unknown is the default (the API refuses it instead, with a 400). */
export function guideInsightsQuery(search: URLSearchParams): GuideInsightsQuery {
  const sort = isOneOf(GUIDE_SORTS, search.get('sort')) ? (search.get('sort') as GuideSort) : 'worst';
  const dir = isOneOf(SORT_DIRECTIONS, search.get('dir')) ? (search.get('dir') as SortDirection) : DEFAULT_DIRECTION[sort];
  const page = /^[1-9]\d{0,4}$/.test(search.get('page') ?? '') ? Number(search.get('page')) : 1;
  return { sort, dir, page };
}

/** "Was this helpful?" answers "no", by the reason given ('none': no reason). */
export type NotHelpfulReasons = Record<FeedbackReason | 'none', number>;

export interface GuideInsightRow {
  level: number;
  title: string;
  difficulty: Difficulty;
  /** Guide page views (see docs/operations.md: HTML loads by people, not bots, prefetches or client navigation). */
  views_recent: number;
  views_total: number;
  votes: number;
  helpful_votes: number;
  /** The helpful share shown on the guide page; null below its minimum of answers. */
  helpful_percent: number | null;
  not_helpful_reasons: NotHelpfulReasons;
  open_reports: number;
  /** The newest open reports, at most OPEN_REPORTS_SHOWN. */
  reports: GuideReportView[];
  /** Browsers that marked the level solved, or still stuck. */
  solved: number;
  stuck: number;
  /** The rung where most players still tapped "Still stuck" (the one to rewrite), or null before any such tap. */
  stuck_at: LadderRung | null;
  /** The guide's detail: each ladder (a puzzle, or the level's one), with how many players stopped at each rung. */
  ladders: LadderStops[];
}

/** A rung of a ladder: after `revealed` hints (0: none) `players` still tapped "Still stuck". */
export interface LadderRung {
  ladder: string;
  /** The puzzle's question; null for a guide's one ladder. */
  question: string | null;
  revealed: number;
  players: number;
}

/** Where players stopped on one ladder: per rung (hints revealed at their tap), how many tapped solved or stuck. */
export interface LadderStops {
  ladder: string;
  question: string | null;
  hints: number;
  rungs: { revealed: number; solved: number; stuck: number }[];
}

/** The rung with the most "Still stuck" taps across a guide's ladders (on a tie the earlier ladder, then the lower rung), or null. */
export function stuckMost(ladders: readonly LadderStops[]): LadderRung | null {
  let best: LadderRung | null = null;
  for (const ladder of ladders) {
    for (const rung of ladder.rungs) {
      if (rung.stuck > 0 && (!best || rung.stuck > best.players)) best = { ladder: ladder.ladder, question: ladder.question, revealed: rung.revealed, players: rung.stuck };
    }
  }
  return best;
}

/** A level without a guide that players asked for ("Request this guide"). */
export interface WantedGuideView {
  level: number;
  requests: number;
  last_requested_at: string;
}

export interface GuideInsightsData {
  query: GuideInsightsQuery;
  guides: { items: GuideInsightRow[]; total: number; page: number; pages: number };
  /** The most requested levels without a guide, most requested first: `npm run content:wanted`'s list. */
  wanted: WantedGuideView[];
  recent_days: number;
  min_votes: number;
}

/** Guide insights' section of the page data (src/modules/guide-insights/adapters/pages/guide-insights.pages.ts): /admin/guides, admins only. */
export interface GuideInsightsPages {
  /** The guides with what players said and did, and the most wanted missing ones. */
  overview(query: GuideInsightsQuery): Promise<GuideInsightsData>;
}

// Adds the section to PageData without editing page-data.ts (declaration merging): see PageData.
declare module './page-data' {
  interface PageData {
    readonly guideInsights: GuideInsightsPages;
  }
}
