import { useCallback, useSyncExternalStore } from 'react';
import { onStoredChange, readStored, writeStored } from './stored-state';

/**
 * A string kept in localStorage (per browser), null on the server and before hydration, so the
 * server HTML never depends on it.
 */
export function useStoredState(key: string): [string | null, (value: string) => void] {
  const value = useSyncExternalStore(
    onStoredChange,
    () => readStored(key),
    () => null,
  );
  const set = useCallback((next: string) => writeStored(key, next), [key]);
  return [value, set];
}
