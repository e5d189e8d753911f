import { useEffect, useState } from 'react';
import type { ImageEstimate } from 'src/contracts/images';

/** Choices change in bursts (typing a width, trying sizes): the estimate is asked once they settle. */
const ESTIMATE_DEBOUNCE_MS = 250;

/**
 * The server's estimate for `path` (GET /api/v1/images/estimate?...; null: nothing to ask about),
 * asked again when it changes. A quiet extra: a failure shows no toast, only no figure.
 */
export function useEstimate(path: string | null): { estimate: ImageEstimate | null; loading: boolean } {
  const [answer, setAnswer] = useState<{ path: string; estimate: ImageEstimate | null } | null>(null);
  useEffect(() => {
    if (!path) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(path, { headers: { accept: 'application/json' }, credentials: 'same-origin', signal: controller.signal })
        .then(async (response) => (response.ok ? ((await response.json()) as ImageEstimate) : null))
        .then((estimate) => setAnswer({ path, estimate }))
        .catch(() => controller.signal.aborted || setAnswer({ path, estimate: null }));
    }, ESTIMATE_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [path]);
  if (!path) return { estimate: null, loading: false };
  return answer?.path === path ? { estimate: answer.estimate, loading: false } : { estimate: null, loading: true };
}
