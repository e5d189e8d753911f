import { useState } from 'react';
import { useT } from 'web/i18n/i18n';
import { useStoredState } from 'web/lib/use-stored-state';
import { Icon } from './icons';

/** "Request this guide" for a level with no guide yet: one vote per browser per level. */
export function RequestGuide({ level }: { level: number }) {
  const [requested, setRequested] = useStoredState(`guide-requested:${level}`);
  const [count, setCount] = useState<number>();
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const t = useT();

  async function request() {
    setSending(true);
    setError(undefined);
    let api: typeof import('web/lib/api') | undefined;
    try {
      // The API client loads on the first click, not with the page (the first-load budget).
      api = await import('web/lib/api');
      const { data } = await api.apiRequest<{ requests: number }>(t, 'POST', `/api/v1/levels/${level}/guide_requests`);
      setCount(data.requests);
      setRequested('1');
    } catch (e) {
      setError(t(api && e instanceof api.ApiError && e.status === 429 ? 'request.tooMany' : 'request.failed'));
    } finally {
      setSending(false);
    }
  }

  if (requested) {
    return (
      <p role="status" className="inline-flex items-center gap-2 rounded-full bg-primary-50 px-4 py-2 text-sm font-semibold text-primary-800 dark:bg-primary-950 dark:text-primary-300">
        <Icon name="check" className="size-4" />
        {count && count > 1
          ? t(count === 2 ? 'request.doneWithOne' : 'request.doneWithOthers', { others: count - 1 })
          : t('request.done')}
      </p>
    );
  }
  return (
    <div>
      <button
        type="button"
        onClick={() => void request()}
        disabled={sending}
        className="inline-flex items-center gap-2 rounded-full bg-primary-700 px-5 py-2.5 font-semibold text-white shadow-sm transition hover:bg-primary-800 disabled:opacity-60 dark:bg-primary-500 dark:text-gray-950 dark:hover:bg-primary-400"
      >
        <Icon name="bell" className="size-4" />
        {t('request.button')}
      </button>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
