import { useMemo } from 'react';
import { PROGRESS_KEY, parseStoredProgress, type ProgressLevels } from 'src/contracts/progress';
import { useStoredState } from './use-stored-state';

export { readProgress, setMark, writeProgress } from './progress-store';

/**
 * This browser's progress (localStorage, never sent while signed out): empty on the server and
 * during hydration, like every stored state, so cached page HTML is the same for everyone. The
 * inline PROGRESS_SCRIPT and PROGRESS_LIST_SCRIPT draw the same marks before the first paint.
 */
export function useProgress(): ProgressLevels {
  const [raw] = useStoredState(PROGRESS_KEY);
  return useMemo(() => parseStoredProgress(raw), [raw]);
}

/** A level's mark, '' for none. */
export const markOf = (levels: ProgressLevels, level: number): 'solved' | 'stuck' | '' => {
  const state = levels[level]?.state;
  return state === 'solved' || state === 'stuck' ? state : '';
};
