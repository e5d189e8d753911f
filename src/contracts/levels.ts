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
  picture?: StepPicture;
}

/** A spot to tap, drawn over a step's picture (not burned in): centre and radius in percent of the picture's width/height. */
export interface TapMark {
  x: number;
  y: number;
  r: number;
  label: string;
}

/**
 * A step's picture, made at import into responsive copies under hashed, immutable URLs:
 * `${src}-${width}.avif` and `.webp` for each of `widths`. `width` and `height` are the source's,
 * for the aspect ratio (nothing shifts while it loads).
 */
export interface StepPicture {
  src: string;
  widths: number[];
  width: number;
  height: number;
  alt: string;
  marks: TapMark[];
}

/** The URL of one copy of a step picture. */
export const pictureUrl = (picture: Pick<StepPicture, 'src'>, width: number, format: 'avif' | 'webp') => `${picture.src}-${width}.${format}`;

export const EXTRA_KINDS = ['bonus', 'collectible', 'quiz'] as const;
export type ExtraKind = (typeof EXTRA_KINDS)[number];

/**
 * One sub-puzzle of a guide: the question a player would ask, the in-game object it is about, its
 * own hint ladder and its steps (`steps.slice(firstStep, firstStep + stepCount)` of the level: the
 * steps are stored once, puzzle after puzzle). An extra (bonus, collectible, quiz) is shown after
 * the main escape, folded.
 */
export interface GuidePuzzle {
  /** Stable slug: the reveal state in the browser and the stop counts are keyed by it. */
  id: string;
  question: string;
  object?: string;
  extra?: ExtraKind;
  hintsHtml: string[];
  firstStep: number;
  stepCount: number;
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
  /** Ordered from least to most revealing. The level's one ladder: empty when the guide has puzzles (each has its own). */
  hintsHtml: string[];
  /** Every step; with puzzles, puzzle after puzzle, the main escape before the extras. */
  steps: GuideStep[];
  /** The sub-puzzles, when the guide is split into them. */
  puzzles?: GuidePuzzle[];
  video?: Walkthrough;
  gameVersion: string;
  /** YYYY-MM-DD */
  verifiedOn: string;
  updatedAt: string;
  /** How many players found the guide helpful: only once it has HELPFUL_SHARE_MIN_VOTES answers. */
  helpful?: HelpfulShare;
}

/**
 * The query that puts a guide's steps in its page: a guide in puzzles shows its ladders first and
 * its steps (with their pictures) at `/levels/{n}?steps=1`, so the first view stays light.
 */
export const STEPS_QUERY = 'steps';

/** Data of /levels/{n}: a written guide, or a number in range with no guide yet. */
export type LevelPageData =
  | {
      kind: 'guide';
      level: LevelDetail;
      prev?: LevelSummary;
      next?: LevelSummary;
      /**
       * A guide in puzzles asked without `?steps=1`: `level.steps` keep only their video moments
       * (`html` empty, no picture), the steps themselves come with `?steps=1`.
       */
      stepsOnRequest?: boolean;
    }
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
