export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const DIFFICULTY_LABELS: Record<Difficulty, string> = { easy: 'Easy', medium: 'Medium', hard: 'Hard' };

/** A level in lists and links. */
export interface LevelSummary {
  number: number;
  title: string;
  difficulty: Difficulty;
  /** Reference completion time in seconds. */
  referenceSeconds: number;
}

export interface GuideStep {
  html: string;
  /** Moment of the walkthrough video this step shows, in seconds. */
  atSeconds?: number;
}

export interface Walkthrough {
  youtubeId: string;
  title: string;
  durationSeconds: number;
  /** Sample content: the id is a placeholder and no real video exists. */
  sample: boolean;
}

/** The video a guide shows: none for a sample guide's placeholder (no player, no moment links, nothing to report about it). */
export const playableVideo = (video: Walkthrough | undefined): Walkthrough | undefined => (video?.sample ? undefined : video);

/** Everything a level's guide page shows. */
export interface LevelDetail extends LevelSummary {
  unlocksAt?: number;
  introHtml: string;
  tipsHtml: string[];
  /** Ordered from least to most revealing. */
  hintsHtml: string[];
  steps: GuideStep[];
  video?: Walkthrough;
  gameVersion: string;
  /** YYYY-MM-DD */
  verifiedOn: string;
  updatedAt: string;
  /** How many players found the guide helpful: only once it has HELPFUL_SHARE_MIN_VOTES answers. */
  helpful?: HelpfulShare;
}

/** Data of /levels/{n}: a written guide, or a number in range with no guide yet. */
export type LevelPageData =
  | { kind: 'guide'; level: LevelDetail; prev?: LevelSummary; next?: LevelSummary }
  | { kind: 'not-covered'; number: number; prev?: LevelSummary; next?: LevelSummary };

export const LEVELS_PAGE_SIZE = 24;

/**
 * The levels that have a published guide, as runs: "1-5 7 9 12-14" (ascending, space-separated).
 * Small enough for cached HTML that is the same for everyone (it grows with the gaps between
 * guides, not with their number), and read by the inline PROGRESS_LIST_SCRIPT as well as by React.
 */
export type GuideRanges = string;

/** Writes runs of consecutive numbers, ascending: [[1, 5], [7, 7]] → "1-5 7". */
export const formatGuideRanges = (runs: readonly (readonly [number, number])[]): GuideRanges =>
  runs.map(([from, to]) => (from === to ? String(from) : `${from}-${to}`)).join(' ');

/** The first level after `level` that has a guide ("On to level N" on a guide), or undefined past the last one. */
export function nextGuideAfter(ranges: GuideRanges, level: number): number | undefined {
  for (const run of ranges.split(' ')) {
    const [from, to = from] = run.split('-').map(Number);
    if (to! > level) return Math.max(from!, level + 1);
  }
  return undefined;
}

/** Filters of /levels and GET /api/v1/levels (validated by levelListQuerySchema). */
export interface LevelListQuery {
  difficulty?: Difficulty;
  query: string | undefined;
  page: number;
}

export interface LevelListData {
  query: LevelListQuery;
  levels: LevelSummary[];
  total: number;
  page: number;
  pageCount: number;
  /** Counts per difficulty for the filter (for the current text query). */
  counts: Record<Difficulty | 'all', number>;
}

export const FEEDBACK_REASONS = ['unclear_step', 'different_version', 'wrong'] as const;
export type FeedbackReason = (typeof FEEDBACK_REASONS)[number];

export interface GuideFeedback {
  helpful: boolean;
  reason?: FeedbackReason;
}

/** A guide shows its helpful share once this many players answered "Was this helpful?": fewer mean little. */
export const HELPFUL_SHARE_MIN_VOTES = 10;

/** "87% of 23 players found this guide helpful". */
export interface HelpfulShare {
  percent: number;
  votes: number;
}

/**
 * The share of "yes" answers in whole percent, or undefined below HELPFUL_SHARE_MIN_VOTES answers.
 * 100% and 0% only when every answer agrees: 299 of 300 is 99%, not a rounded-up 100%.
 */
export function helpfulShare(helpful: number, votes: number): HelpfulShare | undefined {
  if (votes < HELPFUL_SHARE_MIN_VOTES) return undefined;
  const percent = helpful >= votes ? 100 : helpful <= 0 ? 0 : Math.min(99, Math.max(1, Math.round((helpful / votes) * 100)));
  return { percent, votes };
}

/** The most requested levels without a guide that `npm run content:wanted` and /admin/guides list: the same list. */
export const MOST_REQUESTED_SHOWN = 50;

/** "3:30" for 210 seconds; "1:02:05" past an hour. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

/**
 * The id of /levels/{id}: digits only, no leading zero, 1 to `max`. Anything else is the 404 page.
 * Returns the number, or null.
 */
export function parseLevelId(raw: string, max: number): number | null {
  if (!/^[1-9]\d{0,6}$/.test(raw)) return null;
  const number = Number(raw);
  return number <= max ? number : null;
}

/** The levels' section of the page data (src/modules/levels/adapters/pages/levels.pages.ts). */
export interface LevelsPages {
  page(number: number): Promise<LevelPageData>;
  list(query: LevelListQuery): Promise<LevelListData>;
  /** The hard guides, longest reference time first (a list page's worth), and how many hard guides there are. */
  hardest(): Promise<{ levels: LevelSummary[]; total: number }>;
  featured(): Promise<LevelSummary[]>;
  /** The levels with a published guide, as runs ("1-5 7 9"): where "Continue at level N" goes. */
  guideRanges(): Promise<GuideRanges>;
  /** featured() and guideRanges() in one round trip: the home page's. */
  home(): Promise<{ featured: LevelSummary[]; guides: GuideRanges }>;
}

// Adds the section to PageData without editing page-data.ts (declaration merging): see PageData.
declare module './page-data' {
  interface PageData {
    readonly levels: LevelsPages;
  }
}
