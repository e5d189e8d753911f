import 'web/lib/zod-jitless';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { INSUFFICIENT_CREDITS, type Paged } from 'src/contracts/billing';
import { DEFAULT_IMAGE_CONVERSION, IMAGE_MAX_BYTES, type ImageConversion, type ImageJobView } from 'src/contracts/images';
import { imageUrlSchema } from 'src/contracts/images.schema';
import { cardClass, mutedClass, useAccountData, useSession } from 'web/components/account-ui';
import { Seo } from 'web/components/seo';
import { TestModeNote } from 'web/components/test-mode-note';
import { usePageI18n } from 'web/i18n/page-messages';
import { ApiError, apiRequest, apiUpload } from 'web/lib/api';
import { refreshCredits } from 'web/lib/credits';
import { formatBytes, isUnfinished, submitProblem } from 'web/lib/image-tool';
import { openLoginModal } from 'web/lib/login-modal';
import { sessionLoaded, sessionStore, signedOut } from 'web/lib/session';
import { Checkout } from 'web/features/image-tool/checkout';
import { ConversionChoice } from 'web/features/image-tool/conversion-choice';
import { History } from 'web/features/image-tool/history';
import { API, Chosen, Source } from 'web/features/image-tool/image-tool-common';
import { JobPanel } from 'web/features/image-tool/job-panel';
import { SourceTabs } from 'web/features/image-tool/source-tabs';
import { UploadPanel } from 'web/features/image-tool/upload-panel';
import { UrlPanel } from 'web/features/image-tool/url-panel';
import { useJobPolling } from 'web/features/image-tool/use-job-polling';

/**
 * /tools/image: the image converter (upload or image URL, a conversion, 1 credit an image), the
 * job while it waits and runs, the before/after comparison with its download, and the history of
 * the user's images. The HTML is the same for everyone (cached); the user's part loads in the
 * browser. 404 while payments are off (its loader).
 */
/** While the history shows jobs still waiting or running (other than the one polled), it reloads this often. */
const HISTORY_REFRESH_MS = 3000;

export default function ImageToolPage() {
  const { t, tag } = usePageI18n();
  const session = useSession();
  const [source, setSource] = useState<Source>('upload');
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [url, setUrl] = useState('');
  const [conversion, setConversion] = useState<ImageConversion>(DEFAULT_IMAGE_CONVERSION);
  const [missing, setMissing] = useState(false);
  const [urlInvalid, setUrlInvalid] = useState(false);
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
  const send = async (request: { source: 'upload'; file: File } | { source: 'url'; url: string }, chosenConversion: ImageConversion) => {
    setBusy(true);
    setProblem(null);
    try {
      // A job costs a credit: sent once, whatever the answer (a retry could run it twice).
      let response;
      if (request.source === 'upload') {
        const form = new FormData();
        // The conversion first: the server reads the fields before it streams the file.
        form.append('conversion', chosenConversion);
        form.append('file', request.file, request.file.name);
        response = await apiUpload<ImageJobView>(t, API, form, { retry: false });
      } else {
        response = await apiRequest<ImageJobView>(t, 'POST', API, { conversion: chosenConversion, url: request.url }, { retry: false });
      }
      show(response.data);
      setHistoryPage(1);
      setHistoryVersion((n) => n + 1);
      void refreshCredits();
    } catch (error) {
      if (!(error instanceof ApiError)) return; // A network failure: the toast said so.
      if (error.status === 401) {
        signedOut();
        openLoginModal({ onSignedIn: () => void send(request, chosenConversion) });
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
  const working = busy ? 'sending' : job && isUnfinished(job) ? 'converting' : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (working) return;
    let request: Parameters<typeof send>[0];
    if (source === 'upload') {
      if (!chosen) return setMissing(true);
      if (chosen.problem) return;
      request = { source: 'upload', file: chosen.file };
    } else {
      const parsed = imageUrlSchema.safeParse(url);
      if (!parsed.success) return setUrlInvalid(true);
      request = { source: 'url', url: parsed.data };
    }
    // Signed out: sign in first, then the job goes on. A submit before the session is known waits for it.
    if (!session.loaded) await sessionLoaded();
    if (!sessionStore.get().userInfo) openLoginModal({ onSignedIn: () => void send(request, conversion) });
    else void send(request, conversion);
  };

  return (
    <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={t('image.seoTitle')} description={t('image.seoDescription')} />
      <div className="max-w-3xl">
        <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{t('image.title')}</h1>
        <p className={`mt-3 text-lg ${mutedClass}`}>{t('image.intro')}</p>
        {/* On phones the note sits here: the action card at the bottom of the screen stays small. */}
        <TestModeNote className="mt-4 lg:hidden" />
      </div>

      {job && (
        <section ref={jobPanel} aria-labelledby="image-job-title" className="mt-8 scroll-mt-24" data-testid="image-job" data-status={job.status}>
          <JobPanel
            job={job}
            onAnother={() => {
              setJob(null);
              setResume(false);
            }}
          />
        </section>
      )}

      <form noValidate onSubmit={(event) => void submit(event)} className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start" aria-label={t('image.title')}>
        <div className={`${cardClass} min-w-0 space-y-8 max-sm:p-4`}>
          <SourceTabs
            source={source}
            onSource={setSource}
            upload={
              <UploadPanel
                chosen={chosen}
                conversion={conversion}
                missing={missing}
                onChoose={(next) => {
                  setChosen(next);
                  setMissing(false);
                  setProblem(null);
                }}
              />
            }
            url={
              <UrlPanel
                value={url}
                invalid={urlInvalid}
                onChange={(value, invalid) => {
                  setUrl(value);
                  setUrlInvalid(invalid);
                  setProblem(null);
                }}
              />
            }
          />
          <ConversionChoice value={conversion} onChange={setConversion} />
        </div>
        <Checkout working={working} problem={problem} />
      </form>

      <section aria-labelledby="image-history" className="mt-12">
        <h2 id="image-history" className="text-xl font-bold">
          {t('image.history')}
        </h2>
        <div className="mt-4">
          <History remote={history} retry={retryHistory} onPage={setHistoryPage} onView={show} />
        </div>
      </section>
    </main>
  );
}
