import { useEffect, useState } from 'react';
import { useT } from 'web/i18n/i18n';
import { useNavigating } from 'web/lib/router/router';

/** The spec's loading bar: shows after 200 ms, fills over 2000 ms, hides 500 ms after, resets 400 ms later, 3 px high. */
export const LOADING_BAR = { duration: 2000, throttle: 200, hideDelay: 500, resetDelay: 400, height: 3 } as const;

type Phase = 'idle' | 'running' | 'done' | 'resetting';

export function LoadingBar() {
  const navigating = useNavigating();
  const t = useT();
  const [phase, setPhase] = useState<Phase>('idle');

  useEffect(() => {
    if (navigating) {
      // Quick navigations never show the bar.
      const shown = setTimeout(() => setPhase('running'), LOADING_BAR.throttle);
      return () => clearTimeout(shown);
    }
    const finish = setTimeout(() => setPhase((p) => (p === 'running' ? 'done' : p)), 0);
    const hide = setTimeout(() => setPhase((p) => (p === 'done' ? 'resetting' : p)), LOADING_BAR.hideDelay);
    const reset = setTimeout(() => setPhase((p) => (p === 'resetting' ? 'idle' : p)), LOADING_BAR.hideDelay + LOADING_BAR.resetDelay);
    return () => [finish, hide, reset].forEach(clearTimeout);
  }, [navigating]);

  const width = phase === 'running' ? '90%' : phase === 'done' || phase === 'resetting' ? '100%' : '0%';
  return (
    <div
      role="progressbar"
      aria-label={t('loading.label')}
      aria-hidden={phase === 'idle'}
      data-phase={phase}
      className="loading-bar"
      style={{
        height: LOADING_BAR.height,
        width,
        opacity: phase === 'running' || phase === 'done' ? 1 : 0,
        transition:
          phase === 'running'
            ? `width ${LOADING_BAR.duration}ms ease-out, opacity 150ms`
            : phase === 'idle'
              ? 'none'
              : 'width 200ms ease-out, opacity 300ms',
      }}
    />
  );
}
