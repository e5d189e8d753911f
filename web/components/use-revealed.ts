import { hintsRevealedKey } from 'src/contracts/inline-scripts';
import { useStoredState } from 'web/lib/use-stored-state';

/** How many hints of a ladder this browser revealed (the level's one ladder, or a puzzle's), and how to reveal one more. */
export function useRevealed(level: number, puzzle: string | undefined, total: number): [number, () => void] {
  const [stored, setStored] = useStoredState(hintsRevealedKey(level, puzzle));
  const revealed = Math.min(total, Math.max(0, Number(stored) || 0));
  return [revealed, () => setStored(String(Math.min(total, revealed + 1)))];
}
