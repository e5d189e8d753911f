/** Strings kept in localStorage, and who hears of their changes: no React here, so code loaded apart (the progress sync) can share it. */
const listeners = new Set<() => void>();
/** Calls `listener` on every change of stored state, this tab's and (by the storage event) other tabs'. */
export const onStoredChange = (listener: () => void) => {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
};

export function readStored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private mode or storage full: the choice lasts for this page only.
  }
  listeners.forEach((listener) => listener());
}
