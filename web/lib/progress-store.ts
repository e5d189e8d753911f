import { PROGRESS_KEY, parseStoredProgress, storedProgress, type ProgressLevels, type ProgressState } from 'src/contracts/progress';
import { readStored, writeStored } from './stored-state';

/** This browser's progress in localStorage, without React: shared by the pages (web/lib/progress.ts) and the sync. */
export const readProgress = (): ProgressLevels => parseStoredProgress(readStored(PROGRESS_KEY));

export const writeProgress = (levels: ProgressLevels): void => writeStored(PROGRESS_KEY, storedProgress(levels));

/**
 * Marks a level (or takes the mark back with 'none', kept as a dated entry so a merge with another
 * device cannot revive it), and counts the tap anonymously: level and mark, with no account, and
 * how many hints of each ladder were revealed (`ladders`, by puzzle id; where players stop).
 */
export function setMark(level: number, state: ProgressState, ladders?: Record<string, number>): void {
  writeProgress({ ...readProgress(), [level]: { state, at: Date.now() } });
  // A count, not a save: a failure loses one tap of a statistic and nothing of the player's.
  void fetch(`/api/v1/levels/${level}/progress`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ladders && Object.keys(ladders).length ? { state, ladders } : { state }),
    credentials: 'same-origin',
    keepalive: true,
  }).catch(() => undefined);
}
