import { useState } from 'react';
import { FEEDBACK_REASONS, type FeedbackReason } from 'src/contracts/levels';
import { useT, type MessageKey } from 'web/i18n/i18n';
import { useStoredState } from 'web/lib/use-stored-state';
import { Icon } from './icons';

const REASON_LABELS: Record<FeedbackReason, MessageKey> = {
  unclear_step: 'feedback.reasonUnclearStep',
  different_version: 'feedback.reasonDifferentVersion',
  wrong: 'feedback.reasonWrong',
};

/** "Was this helpful?": yes or no, with an optional reason; one answer per browser per level. */
export function GuideFeedback({ level }: { level: number }) {
  const [answered, setAnswered] = useStoredState(`guide-feedback:${level}`);
  const [choosingReason, setChoosingReason] = useState(false);
  const [reason, setReason] = useState<FeedbackReason>();
  const [error, setError] = useState<string>();
  const t = useT();

  async function send(helpful: boolean) {
    setError(undefined);
    try {
      // The API client loads on the first answer, not with the page (the first-load budget).
      const { apiRequest } = await import('web/lib/api');
      await apiRequest(t, 'POST', `/api/v1/levels/${level}/feedback`, { helpful, ...(reason && !helpful ? { reason } : {}) });
      setAnswered(helpful ? 'yes' : 'no');
      setChoosingReason(false);
    } catch (e) {
      setError((e as Error).message || t('feedback.sendFailed'));
    }
  }

  if (answered) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm font-medium text-primary-700 dark:text-primary-400">
        <Icon name="check" className="size-4" />
        {t('feedback.thanks')}
      </p>
    );
  }
  return (
    <div className="rounded-2xl bg-gray-50 p-5 dark:bg-gray-900">
      <p id={`helpful-${level}`} className="font-semibold">
        {t('feedback.question')}
      </p>
      {!choosingReason ? (
        <div className="mt-3 flex gap-2" role="group" aria-labelledby={`helpful-${level}`}>
          <button type="button" onClick={() => void send(true)} className="inline-flex items-center gap-1.5 rounded-full border border-gray-300 bg-white px-4 py-1.5 text-sm font-medium hover:border-primary-500 dark:border-gray-700 dark:bg-gray-950">
            <Icon name="thumbUp" className="size-4" /> {t('feedback.yes')}
          </button>
          <button type="button" onClick={() => setChoosingReason(true)} className="inline-flex items-center gap-1.5 rounded-full border border-gray-300 bg-white px-4 py-1.5 text-sm font-medium hover:border-red-400 dark:border-gray-700 dark:bg-gray-950">
            <Icon name="thumbDown" className="size-4" /> {t('feedback.no')}
          </button>
        </div>
      ) : (
        <fieldset className="mt-3">
          <legend className="text-sm text-gray-600 dark:text-gray-400">{t('feedback.reasonLegend')}</legend>
          <div className="mt-2 flex flex-wrap gap-2">
            {FEEDBACK_REASONS.map((r) => (
              <label key={r} className="inline-flex cursor-pointer items-center gap-2 rounded-full border border-gray-300 bg-white px-3 py-1.5 text-sm has-checked:border-primary-500 has-checked:bg-primary-50 dark:border-gray-700 dark:bg-gray-950 dark:has-checked:bg-primary-950">
                <input type="radio" name={`reason-${level}`} value={r} checked={reason === r} onChange={() => setReason(r)} className="accent-primary-600" />
                {t(REASON_LABELS[r])}
              </label>
            ))}
          </div>
          <button type="button" onClick={() => void send(false)} className="mt-3 rounded-full bg-gray-900 px-4 py-1.5 text-sm font-semibold text-white hover:bg-gray-700 dark:bg-white dark:text-gray-900">
            {t('feedback.send')}
          </button>
        </fieldset>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
