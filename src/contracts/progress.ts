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

/** localStorage keys (also read by the inline PROGRESS_SCRIPT in inline-scripts.ts). */
export const PROGRESS_KEY = 'progress';
export const HIDE_SOLVED_KEY = 'progress-hide-solved';

/**
 * Per level, the later change wins: a mark made on the phone after one made on the laptop replaces
 * it, whichever side syncs first. On equal times `stored` wins, so merging twice changes nothing.
 * A change made at or before `clearedAt` (the player cleared everything since) is dropped.
 */
export function mergeProgress(stored: ProgressLevels, incoming: ProgressLevels, clearedAt = -Infinity): ProgressLevels {
  const merged: ProgressLevels = {};
  for (const side of [incoming, stored]) {
    for (const [key, entry] of Object.entries(side)) {
      const level = Number(key);
      if (entry.at <= clearedAt) continue;
      const other = merged[level];
      if (!other || entry.at >= other.at) merged[level] = entry;
    }
  }
  return merged;
}

/** The levels marked solved, in order. */
export const solvedLevels = (levels: ProgressLevels): number[] =>
  Object.entries(levels)
    .filter(([, entry]) => entry.state === 'solved')
    .map(([key]) => Number(key))
    .sort((a, b) => a - b);

/** "Continue at level N": the level after the highest solved one, while it is within the game (`max`). */
export function continueAt(levels: ProgressLevels, max: number): number | undefined {
  const solved = solvedLevels(levels);
  const next = solved.length ? solved[solved.length - 1]! + 1 : undefined;
  return next !== undefined && next <= max ? next : undefined;
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

/**
 * One level's entry on the wire: its age, not its time. A browser's clock may be minutes or days
 * off; what both sides agree on is how long before "now" a change was made. The sender gives ages
 * on its clock and the receiver dates them on its own, so no clock is ever compared with another.
 */
export interface ProgressItem {
  level: number;
  state: ProgressState;
  /** Milliseconds between the change and the sender's now. */
  ago: number;
}

/** Entries as ages before `now`; a change dated after `now` (a clock set back since) counts as made now. */
export const toItems = (levels: ProgressLevels, now: number): ProgressItem[] =>
  Object.entries(levels)
    .map(([key, entry]) => ({ level: Number(key), state: entry.state, ago: Math.max(0, now - entry.at) }))
    .sort((a, b) => a.level - b.level);

/** Ages dated on the receiver's clock. */
export const fromItems = (items: ProgressItem[], now: number): ProgressLevels =>
  Object.fromEntries(items.map((item) => [item.level, { state: item.state, at: now - item.ago }]));

/** The most entries one sync request carries (the browser sends more in batches), within the API's body limit. */
export const PROGRESS_SYNC_BATCH = 500;

/** POST /api/v1/me/progress: this browser's entries, aged on its own clock. */
export interface ProgressSyncInput {
  levels: ProgressItem[];
}

/** The account's progress after the merge, aged on the server's clock. */
export interface ProgressSyncResult {
  levels: ProgressItem[];
  /** How long ago the player last cleared everything (the browser drops older entries); null if never. */
  clearedAgo: number | null;
}

/** The export (a download in the browser, GET /api/v1/me/progress for the account): dates, for people. */
export interface ProgressExport {
  exportedAt: string;
  levels: { level: number; state: ProgressState; changedAt: string }[];
}

export const toExport = (levels: ProgressLevels, now: number): ProgressExport => ({
  exportedAt: new Date(now).toISOString(),
  levels: Object.entries(levels)
    .map(([key, entry]) => ({ level: Number(key), state: entry.state, changedAt: new Date(entry.at).toISOString() }))
    .sort((a, b) => a.level - b.level),
});
