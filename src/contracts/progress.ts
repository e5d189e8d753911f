import { nextGuideAfter, type GuideRanges } from './levels';

/**
 * A player's progress: per level "Solved it", "Still stuck", or a mark taken back ('none'), with
 * the time of the change. Kept in the browser (localStorage, never sent to the server while
 * signed out) and, for a signed-in player, in the account. Pure TypeScript shared by the browser
 * and the server, so both merge by the same rules.
 */
export const PROGRESS_MARKS = ['solved', 'stuck'] as const;
export type ProgressMark = (typeof PROGRESS_MARKS)[number];
export type ProgressState = ProgressMark | 'none';

export interface ProgressEntry {
  state: ProgressState;
  /** When the player made this change: milliseconds since 1970, on the clock of whoever holds the entry. */
  at: number;
}

/** Entries by level number. */
export type ProgressLevels = Record<number, ProgressEntry>;

/** localStorage keys (also read by the inline PROGRESS_SCRIPT and PROGRESS_LIST_SCRIPT in inline-scripts.ts). */
export const PROGRESS_KEY = 'progress';
export const HIDE_SOLVED_KEY = 'progress-hide-solved';

/** The levels marked solved, in order. */
export const solvedLevels = (levels: ProgressLevels): number[] =>
  Object.entries(levels)
    .filter(([, entry]) => entry.state === 'solved')
    .map(([key]) => Number(key))
    .sort((a, b) => a - b);

/**
 * "Continue at level N": the first level with a guide after the highest solved one, the level the
 * guide's own "On to level N" names (the inline PROGRESS_LIST_SCRIPT finds the same from `guides`).
 */
export function continueAt(levels: ProgressLevels, guides: GuideRanges): number | undefined {
  const solved = solvedLevels(levels);
  return solved.length ? nextGuideAfter(guides, solved[solved.length - 1]!) : undefined;
}

/**
 * Reads the stored JSON ({ levels: { "27": { state, at } } }), keeping only well-formed entries:
 * storage another version or a person edited never breaks a page.
 */
export function parseStoredProgress(raw: string | null): ProgressLevels {
  const levels: ProgressLevels = {};
  if (!raw) return levels;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return levels;
  }
  const stored = (parsed as { levels?: unknown } | null)?.levels;
  if (!stored || typeof stored !== 'object') return levels;
  for (const [key, value] of Object.entries(stored as Record<string, unknown>)) {
    const entry = value as Partial<ProgressEntry> | null;
    const level = Number(key);
    if (
      Number.isInteger(level) && level > 0 &&
      (entry?.state === 'solved' || entry?.state === 'stuck' || entry?.state === 'none') &&
      typeof entry.at === 'number' && Number.isFinite(entry.at)
    ) {
      levels[level] = { state: entry.state, at: entry.at };
    }
  }
  return levels;
}

export const storedProgress = (levels: ProgressLevels): string => JSON.stringify({ v: 1, levels });

/** The guide's one ladder, when it has no puzzles: how a tap's `ladders` (where players stop) names it; puzzles go by their ids. */
export const LEVEL_LADDER = 'level';
