import { useEffect, useRef } from 'react';
import type { ImageJobView } from 'src/contracts/images';
import { usePageI18n } from 'web/i18n/page-messages';
import { ApiError, apiRequest } from 'web/lib/api';
import { isUnfinished, JOB_POLL_MS, pollDelay } from 'web/lib/image-tool';
import { signedOut } from 'web/lib/session';
import { API } from 'web/features/image-tool/image-tool-common';

/**
 * Asks for the job every second while it is queued or running (slower after failures); each answer
 * replaces it, so the queue position and estimate stay current. `onFinished` runs once it ends.
 */
export function useJobPolling(job: ImageJobView | null, setJob: (job: ImageJobView) => void, onFinished: () => void) {
  const { t } = usePageI18n();
  const id = job && isUnfinished(job) ? job.id : null;
  const finished = useRef(onFinished);
  useEffect(() => {
    finished.current = onFinished;
  });

  useEffect(() => {
    if (!id) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const poll = async () => {
      try {
        const { data } = await apiRequest<ImageJobView>(t, 'GET', `${API}/${encodeURIComponent(id)}`);
        if (!live) return;
        failures = 0;
        setJob(data);
        if (isUnfinished(data)) timer = setTimeout(poll, JOB_POLL_MS);
        else finished.current();
      } catch (error) {
        if (!live) return;
        if (error instanceof ApiError && error.status === 401) return signedOut();
        // Gone (another user's, deleted): stop. Anything else passes: ask again, more slowly.
        if (error instanceof ApiError && error.status === 404) return;
        timer = setTimeout(poll, pollDelay(++failures));
      }
    };
    timer = setTimeout(poll, JOB_POLL_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [id, t, setJob]);
}
