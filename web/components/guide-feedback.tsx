import { lazy, Suspense, useState } from 'react';
import { useT } from 'web/i18n/i18n';
import { useStoredState } from 'web/lib/use-stored-state';
import { Icon } from './icons';

// The reasons and the sending code load when the reader answers, not with the page (the first-load budget).
const load = () => import('./guide-feedback-reasons');
const Reasons = lazy(() => load().then((m) => ({ default: m.GuideFeedbackReasons })));

/** "Was this helpful?": yes or no, with an optional reason; one answer per browser per level. */
export function GuideFeedback({ level }: { level: number }) {
  const [answered, setAnswered] = useStoredState(`guide-feedback:${level}`);
  const [choosingReason, setChoosingReason] = useState(false);
  const [error, setError] = useState<string>();
  const t = useT();

  const yes = () => {
    setError(undefined);
    load()
      .then((m) => m.sendFeedback(t, level, true))
      .then(() => setAnswered('yes'), (e: Error) => setError(e.message || t('feedback.sendFailed')));
  };

  if (answered) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm font-medium text-primary-700 dark:text-primary-400">
        <Icon name="check" className="size-4" />
        {t('feedback.thanks')}
      </p>
    );
  }
  const choice = 'inline-flex items-center gap-1.5 rounded-full border border-gray-300 bg-white px-4 py-1.5 text-sm font-medium dark:border-gray-700 dark:bg-gray-950';
  return (
    <div className="rounded-2xl bg-gray-50 p-5 dark:bg-gray-900">
      <p id={`helpful-${level}`} className="font-semibold">
        {t('feedback.question')}
      </p>
      {!choosingReason ? (
        <div className="mt-3 flex gap-2" role="group" aria-labelledby={`helpful-${level}`}>
          <button type="button" onClick={yes} className={`${choice} hover:border-primary-500`}>
            <Icon name="thumbUp" className="size-4" /> {t('feedback.yes')}
          </button>
          <button type="button" onClick={() => setChoosingReason(true)} className={`${choice} hover:border-red-400`}>
            <Icon name="thumbDown" className="size-4" /> {t('feedback.no')}
          </button>
        </div>
      ) : (
        <Suspense>
          <Reasons level={level} onSent={() => setAnswered('no')} />
        </Suspense>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
