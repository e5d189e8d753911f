import type { ProgressLevels, ProgressState } from './progress';

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
