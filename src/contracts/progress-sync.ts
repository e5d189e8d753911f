import type { ProgressEntry, ProgressLevels, ProgressState } from './progress';

/**
 * How progress kept in two places becomes one (the account's and a browser's), and how it travels:
 * used by the server and by the browser's sync (web/lib/progress-sync.ts), which loads only for
 * signed-in players, so pages that only read and mark progress do not carry it.
 */

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

/**
 * POST /api/v1/me/progress: this browser's entries, aged on its own clock. The first sync of a
 * browser with an account (the sign-in merge) sends them all and has no `since`; after that a sync
 * sends only the entries changed since its last answer, with that answer's `cursor` as `since`.
 */
export interface ProgressSyncInput {
  levels: ProgressItem[];
  since?: string;
}

/**
 * The account's progress after the merge, aged on the server's clock: all of it without `since`;
 * with it, the entries changed since that cursor and those of the levels sent.
 */
export interface ProgressSyncResult {
  levels: ProgressItem[];
  /** How long ago the player last cleared everything (the browser drops older entries); null if never. */
  clearedAgo: number | null;
  /** Where this answer leaves the browser: its next sync sends it as `since`. */
  cursor: string;
}

/** localStorage key of the browser's ProgressSyncState (beside PROGRESS_KEY). */
export const PROGRESS_SYNC_KEY = 'progress-sync';

/** What a signed-in browser knows of its syncs with the account. */
export interface ProgressSyncState {
  /** The last answer's cursor; none: the next sync is the full merge. */
  cursor?: string;
  /**
   * Per level, the time (this browser's dating) of the entry the account is known to hold: an entry
   * whose time differs, or that has none, is a change still to send. Kept until an answer says the
   * account has it, so a sync that failed sends the same changes again (merging them twice is harmless).
   */
  synced: Record<number, number>;
}

/** Reads the stored state, keeping only well-formed parts: anything else means a full merge next. */
export function parseSyncState(raw: string | null): ProgressSyncState {
  let parsed: unknown;
  try {
    parsed = raw ? JSON.parse(raw) : null;
  } catch {
    parsed = null;
  }
  const { cursor, synced } = (parsed ?? {}) as { cursor?: unknown; synced?: unknown };
  if (typeof cursor !== 'string' || !synced || typeof synced !== 'object') return { synced: {} };
  const levels: Record<number, number> = {};
  for (const [key, at] of Object.entries(synced as Record<string, unknown>)) {
    if (Number.isInteger(Number(key)) && Number(key) > 0 && typeof at === 'number' && Number.isFinite(at)) levels[Number(key)] = at;
  }
  return { cursor, synced: levels };
}

export const storedSyncState = (state: ProgressSyncState): string => JSON.stringify({ v: 1, ...state });

/** The entries the account is not known to hold: what the next sync sends (everything before the first). */
export function pendingChanges(levels: ProgressLevels, state: ProgressSyncState): ProgressLevels {
  return Object.fromEntries(Object.entries(levels).filter(([level, entry]) => state.synced[Number(level)] !== entry.at));
}

const sameEntry = (a: ProgressEntry | undefined, b: ProgressEntry | undefined) => a?.state === b?.state && a?.at === b?.at;

/**
 * A sync answer applied to the browser: its entries merged with the account's (per level the later
 * change wins; older than the last clear, dropped), and the levels the account is now known to
 * hold. Not those changed while the request was out (`before` and `current` differ), nor pending
 * changes a later batch carries: they stay to send.
 */
export function applySyncAnswer(sync: {
  /** The browser's entries when the request left, and those it carried. */
  before: ProgressLevels;
  sent: ProgressLevels;
  /** The browser's entries as the answer arrives. */
  current: ProgressLevels;
  state: ProgressSyncState;
  answer: ProgressSyncResult;
  /** When the request left, on the browser's clock: the answer's ages are dated from then. */
  sentAt: number;
}): { levels: ProgressLevels; state: ProgressSyncState } {
  const { before, sent, current, state, answer, sentAt } = sync;
  const account = fromItems(answer.levels, sentAt);
  const levels = mergeProgress(account, current, answer.clearedAgo === null ? undefined : sentAt - answer.clearedAgo);
  const unsent = pendingChanges(before, state);
  for (const level of Object.keys(sent)) delete unsent[Number(level)];
  const synced = Object.fromEntries(Object.entries(state.synced).filter(([level]) => levels[Number(level)])) as Record<number, number>;
  for (const key of new Set([...Object.keys(account), ...Object.keys(sent)])) {
    const level = Number(key);
    if (unsent[level] || !sameEntry(current[level], before[level])) continue;
    if (levels[level]) synced[level] = levels[level].at;
    else delete synced[level];
  }
  return { levels, state: { cursor: answer.cursor, synced } };
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
