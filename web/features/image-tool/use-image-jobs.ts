import { useCallback, useEffect, useRef, useState } from 'react';
import { INSUFFICIENT_CREDITS, type Paged } from 'src/contracts/billing';
import { IMAGE_MAX_BYTES, type ImageJobView } from 'src/contracts/images';
import { useAccountData, useSession } from 'web/components/account-ui';
import { useAccountI18n } from 'web/i18n/account-messages';
import { ApiError, apiRequest, apiUpload } from 'web/lib/api';
import { refreshCredits } from 'web/lib/credits';
import { formatBytes, isUnfinished, requestFields, submitProblem } from 'web/lib/image-tool';
import { openLoginModal } from 'web/lib/login-modal';
import { sessionLoaded, sessionStore, signedOut } from 'web/lib/session';
import { API } from 'web/features/image-tool/image-tool-common';
import type { Submission } from 'web/features/image-tool/use-image-form';
import { useJobPolling } from 'web/features/image-tool/use-job-polling';

/** While the history shows jobs still waiting or running (other than the one polled), it reloads this often. */
const HISTORY_REFRESH_MS = 3000;

/**
 * The user's jobs: the one on screen (polled while unfinished; after a reload mid-job, the newest
 * unfinished one of the history), the history, and sending a new one (after a sign-in if needed).
 */
export function useImageJobs() {
  const { t, tag } = useAccountI18n();
  const session = useSession();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // The job on screen, with whose it is (a sign-out or another sign-in hides it).
  const [held, setHeld] = useState<{ owner: string | undefined; job: ImageJobView } | null>(null);
  const setJob = useCallback((next: ImageJobView | null) => setHeld(next && { owner: sessionStore.get().userInfo?.email, job: next }), []);
  // Until the user starts or dismisses one, the newest unfinished job of the history is shown (a reload mid-job).
  const [resume, setResume] = useState(true);
  const [historyPage, setHistoryPage] = useState(1);
  // Bumped when the user's jobs changed (submitted, finished): the history reloads in place.
  const [historyVersion, setHistoryVersion] = useState(0);
  const [history, retryHistory] = useAccountData<Paged<ImageJobView>>(`${API}?page=${historyPage}`, historyVersion);
  const jobPanel = useRef<HTMLElement>(null);
  const email = session.userInfo?.email;
  const resumable = resume && history.status === 'ready' && historyPage === 1 ? history.data.items.find(isUnfinished) : undefined;
  const job = (held && email && held.owner === email ? held.job : null) ?? resumable ?? null;

  useEffect(() => {
    if (email) void refreshCredits();
  }, [email]);

  useJobPolling(job, setJob, () => {
    void refreshCredits();
    setHistoryVersion((n) => n + 1);
  });

  // Jobs in the list other than the polled one move on by themselves: reload while any is unfinished.
  const listed = history.status === 'ready' ? history.data : undefined;
  const othersUnfinished = !!listed?.items.some((item) => isUnfinished(item) && item.id !== job?.id);
  useEffect(() => {
    if (!othersUnfinished) return;
    const timer = setTimeout(() => setHistoryVersion((n) => n + 1), HISTORY_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [othersUnfinished, listed]);

  const show = (next: ImageJobView) => {
    setJob(next);
    setResume(false);
    // After the layout has the panel: bring it into view.
    requestAnimationFrame(() => jobPanel.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }));
  };

  /** Sends the job; after a sign-in through the modal it runs again with what was chosen then. */
  const send = async (submission: Submission) => {
    setBusy(true);
    setProblem(null);
    try {
      // A job costs a credit: sent once, whatever the answer (a retry could run it twice).
      let response;
      if (submission.source === 'upload') {
        const form = new FormData();
        // The fields first: the server reads them before it streams the file.
        for (const [name, value] of Object.entries(requestFields(submission.request, submission.file.type))) form.append(name, String(value));
        form.append('file', submission.file, submission.file.name);
        response = await apiUpload<ImageJobView>(t, API, form, { retry: false });
      } else {
        response = await apiRequest<ImageJobView>(t, 'POST', API, { ...requestFields(submission.request), url: submission.url }, { retry: false });
      }
      // 202: a new job; 200 with `repeat`: the same image converted lately, answered again for no credit.
      show(response.data);
      setHistoryPage(1);
      setHistoryVersion((n) => n + 1);
      void refreshCredits();
    } catch (error) {
      if (!(error instanceof ApiError)) return; // A network failure: the toast said so.
      if (error.status === 401) {
        signedOut();
        openLoginModal({ onSignedIn: () => void send(submission) });
      } else if (error.code === INSUFFICIENT_CREDITS) {
        // The low-credit modal opened by itself; the balance shown may be stale.
        void refreshCredits();
      } else {
        const key = submitProblem(error.status, error.code);
        setProblem(key ? t(key, { max: formatBytes(IMAGE_MAX_BYTES, tag) }) : error.message);
      }
    } finally {
      setBusy(false);
    }
  };

  // The form says what runs: while a job of this page is queued or running, or one is being sent, it does not send another.
  const working = busy ? ('sending' as const) : job && isUnfinished(job) ? ('converting' as const) : null;

  /** Signed out: sign in first, then the job goes on. A submit before the session is known waits for it. */
  const submit = async (submission: Submission) => {
    if (!session.loaded) await sessionLoaded();
    if (!sessionStore.get().userInfo) openLoginModal({ onSignedIn: () => void send(submission) });
    else void send(submission);
  };

  return {
    job,
    jobPanel,
    working,
    problem,
    clearProblem: () => setProblem(null),
    submit,
    show,
    dismiss: () => {
      setJob(null);
      setResume(false);
    },
    history,
    retryHistory,
    setHistoryPage,
  };
}
