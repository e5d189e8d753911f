import { useState } from 'react';
import { FEEDBACK_REASONS, type FeedbackReason } from 'src/contracts/levels';
import { useT, type MessageKey, type Translate } from 'web/i18n/i18n';

const REASON_LABELS: Record<FeedbackReason, MessageKey> = {
  unclear_step: 'feedback.reasonUnclearStep',
  different_version: 'feedback.reasonDifferentVersion',
  wrong: 'feedback.reasonWrong',
};

/** Sends an answer; throws the message to show when it could not be sent. */
export async function sendFeedback(t: Translate, level: number, helpful: boolean, reason?: FeedbackReason): Promise<void> {
  try {
    const { apiRequest } = await import('web/lib/api');
    await apiRequest(t, 'POST', `/api/v1/levels/${level}/feedback`, { helpful, ...(reason && !helpful ? { reason } : {}) });
  } catch (e) {
    throw new Error((e as Error).message || t('feedback.sendFailed'), { cause: e });
  }
}

/** The "No" half of "Was this helpful?": an optional reason, then send. Loaded when "No" is chosen. */
export function GuideFeedbackReasons({ level, onSent }: { level: number; onSent: () => void }) {
  const [reason, setReason] = useState<FeedbackReason>();
  const [error, setError] = useState<string>();
  const t = useT();
  const send = () => {
    setError(undefined);
    sendFeedback(t, level, false, reason).then(onSent, (e: Error) => setError(e.message));
  };
  return (
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
      <button type="button" onClick={send} className="mt-3 rounded-full bg-gray-900 px-4 py-1.5 text-sm font-semibold text-white hover:bg-gray-700 dark:bg-white dark:text-gray-900">
        {t('feedback.send')}
      </button>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </fieldset>
  );
}
