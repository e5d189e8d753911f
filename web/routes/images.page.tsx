// First: zod must be jitless before any schema is built (see the module).
import 'web/lib/zod-jitless';
import { useCallback, useEffect, useId, useRef, useState, type DragEvent, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { INSUFFICIENT_CREDITS, type Paged } from 'src/contracts/billing';
import {
  DEFAULT_IMAGE_CONVERSION,
  IMAGE_CONVERSION_LIMITS,
  IMAGE_CONVERSIONS,
  IMAGE_CREDITS,
  IMAGE_MAX_BYTES,
  type ImageConversion,
  type ImageJobView,
} from 'src/contracts/images';
import { imageUrlSchema } from 'src/contracts/images.schema';
import {
  Account,
  Badge,
  buttonClass,
  cardClass,
  linkClass,
  mutedClass,
  Pager,
  secondaryButtonClass,
  useAccountData,
  useCredits,
  useSession,
  type Remote,
} from 'web/components/account-ui';
import { Icon } from 'web/components/icons';
import { Seo } from 'web/components/seo';
import { TestModeNote } from 'web/components/test-mode-note';
import { usePageI18n, type PageTranslate } from 'web/i18n/page-messages';
import { ApiError, apiRequest, apiUpload } from 'web/lib/api';
import { formatDateTime } from 'web/lib/billing-format';
import { creditsLabel, refreshCredits } from 'web/lib/credits';
import {
  ACCEPTED_IMAGE_TYPES,
  checkImageFile,
  CONVERSION_KEYS,
  estimateWords,
  fitWithin,
  formatBytes,
  isUnfinished,
  JOB_POLL_MS,
  JOB_STATUS_KEYS,
  jobFileUrl,
  jobStatusTone,
  pollDelay,
  progressOf,
  queueWords,
  submitProblem,
  type Words,
} from 'web/lib/image-tool';
import { openLoginModal } from 'web/lib/login-modal';
import { useSiteConfig } from 'web/lib/root-data';
import { Link } from 'web/lib/router/router';
import { sessionLoaded, sessionStore, signedOut } from 'web/lib/session';

/*
 * /tools/image: the image converter (upload or image URL, a conversion, 1 credit an image), the
 * job while it waits and runs, the before/after comparison with its download, and the history of
 * the user's images. The HTML is the same for everyone (cached); the user's part loads in the
 * browser. 404 while payments are off (its loader).
 */

const API = '/api/v1/images';
/** Spec: the URL field's hint shows this long after the last keystroke (as the account forms). */
const VALIDATION_DEBOUNCE_MS = 300;
/** While the history shows jobs still waiting or running (other than the one polled), it reloads this often. */
const HISTORY_REFRESH_MS = 3000;

type Source = 'upload' | 'url';

/** The chosen file: its problem, if any, and (once read) its size in pixels and a small preview. */
interface Chosen {
  file: File;
  problem: string | null;
  width?: number;
  height?: number;
  thumbnail?: string;
}

const say = (t: PageTranslate, words: Words) => t(words.key, words.values);

/** Two glyphs only this page needs (kept out of the shared icon set, which every page downloads). */
const GLYPHS = {
  upload: 'M12 15V3M7 8l5-5 5 5M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4',
  link: 'M10 13a5 5 0 0 0 7.54.54l3-3a5 5 0 0 0-7.07-7.07l-1.72 1.71M14 11a5 5 0 0 0-7.54-.54l-3 3a5 5 0 0 0 7.07 7.07l1.71-1.71',
};

function Glyph({ name, className }: { name: keyof typeof GLYPHS; className: string }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" className={className}>
      <path d={GLYPHS[name]} />
    </svg>
  );
}

export function ImageToolPage() {
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

/**
 * Asks for the job every second while it is queued or running (slower after failures); each answer
 * replaces it, so the queue position and estimate stay current. `onFinished` runs once it ends.
 */
function useJobPolling(job: ImageJobView | null, setJob: (job: ImageJobView) => void, onFinished: () => void) {
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

// ---------------------------------------------------------------------------------------------
// The form

/** The Upload and Image URL tabs (ARIA tabs: arrow keys, Home and End move between them). */
function SourceTabs({ source, onSource, upload, url }: { source: Source; onSource: (source: Source) => void; upload: ReactNode; url: ReactNode }) {
  const { t } = usePageI18n();
  const id = useId();
  const tabs: { value: Source; label: string }[] = [
    { value: 'upload', label: t('image.tabUpload') },
    { value: 'url', label: t('image.tabUrl') },
  ];
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = tabs.length - 1;
    const next = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    onSource(tabs[next]!.value);
    refs.current[next]?.focus();
  };
  return (
    <div>
      <div role="tablist" aria-label={t('image.source')} className="inline-flex rounded-full bg-gray-100 p-1 dark:bg-gray-800">
        {tabs.map((tab, index) => (
          <button
            key={tab.value}
            ref={(element) => {
              refs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${tab.value}`}
            aria-selected={source === tab.value}
            aria-controls={`${id}-panel-${tab.value}`}
            tabIndex={source === tab.value ? 0 : -1}
            onClick={() => onSource(tab.value)}
            onKeyDown={(event) => onKeyDown(event, index)}
            data-testid={`image-tab-${tab.value}`}
            className="inline-flex items-center gap-2 rounded-full px-4 py-2 text-sm font-semibold text-gray-600 transition hover:text-gray-900 aria-selected:bg-white aria-selected:text-gray-900 aria-selected:shadow-sm dark:text-gray-300 dark:hover:text-white dark:aria-selected:bg-gray-950 dark:aria-selected:text-white"
          >
            <Glyph name={tab.value === 'upload' ? 'upload' : 'link'} className="size-4" />
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.value}
          role="tabpanel"
          id={`${id}-panel-${tab.value}`}
          aria-labelledby={`${id}-tab-${tab.value}`}
          hidden={source !== tab.value}
          className="mt-4"
        >
          {tab.value === 'upload' ? upload : url}
        </div>
      ))}
    </div>
  );
}

/** The drop zone and file picker; the chosen file with its size, and whether it will be shrunk. */
function UploadPanel({ chosen, conversion, missing, onChoose }: { chosen: Chosen | null; conversion: ImageConversion; missing: boolean; onChoose: (chosen: Chosen | null) => void }) {
  const { t, tag } = usePageI18n();
  const id = useId();
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const current = useRef<File | null>(null);
  const max = formatBytes(IMAGE_MAX_BYTES, tag);

  const choose = (file: File | undefined) => {
    if (!file) return;
    const problem = checkImageFile(file);
    const next: Chosen = { file, problem: problem && t(problem, { max }) };
    current.current = file;
    onChoose(next);
    if (!problem) void readImage(file).then((read) => current.current === file && read && onChoose({ ...next, ...read }));
  };
  const remove = () => {
    current.current = null;
    onChoose(null);
    if (input.current) input.current.value = '';
    input.current?.focus();
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  };

  const fit = chosen?.width && chosen.height ? fitWithin(chosen.width, chosen.height, conversion) : null;
  const error = missing ? t('image.fileMissing') : chosen?.problem;
  return (
    <div>
      <label
        htmlFor={`${id}-file`}
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = 'copy';
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-dragging={dragging || undefined}
        data-invalid={error ? true : undefined}
        className="flex cursor-pointer flex-col items-center justify-center gap-2 rounded-2xl border-2 border-dashed border-gray-300 bg-gray-50 px-4 py-10 text-center transition hover:border-primary-500 hover:bg-primary-50/50 has-focus-visible:border-primary-500 has-focus-visible:ring-2 has-focus-visible:ring-primary-500/30 data-dragging:border-primary-500 data-dragging:bg-primary-50 data-invalid:border-red-400 dark:border-gray-700 dark:bg-gray-900 dark:hover:bg-primary-950/30 dark:data-dragging:bg-primary-950/50 dark:data-invalid:border-red-500"
      >
        <span className="flex size-12 items-center justify-center rounded-full bg-primary-100 text-primary-700 dark:bg-primary-900 dark:text-primary-300">
          <Glyph name="upload" className="size-6" />
        </span>
        <span className="font-semibold">{t(dragging ? 'image.dropActive' : 'image.drop')}</span>
        <span id={`${id}-hint`} className={`text-sm ${mutedClass}`}>
          {t('image.dropHint', { max })}
        </span>
        <input
          ref={input}
          id={`${id}-file`}
          type="file"
          name="file"
          accept={ACCEPTED_IMAGE_TYPES.join(',')}
          onChange={(event) => choose(event.target.files?.[0])}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          data-testid="image-file"
          className="sr-only"
        />
      </label>
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
      {chosen && (
        <div className="mt-4 flex items-center gap-4 rounded-2xl border border-gray-200 p-3 dark:border-gray-800" data-testid="image-chosen">
          {chosen.thumbnail ? (
            <img src={chosen.thumbnail} alt="" className="size-16 shrink-0 rounded-lg bg-gray-100 object-cover dark:bg-gray-800" />
          ) : (
            <span className="flex size-16 shrink-0 items-center justify-center rounded-lg bg-gray-100 text-gray-400 dark:bg-gray-800" aria-hidden="true">
              <Icon name="eye" className="size-6" />
            </span>
          )}
          <div className="min-w-0 flex-1">
            <p className="truncate font-medium">{chosen.file.name}</p>
            <p className={`text-sm ${mutedClass}`}>
              {chosen.width && chosen.height
                ? t('image.fileSize', { width: chosen.width, height: chosen.height, size: formatBytes(chosen.file.size, tag) })
                : formatBytes(chosen.file.size, tag)}
            </p>
            {fit?.shrunk && (
              <p className="mt-1 text-sm text-amber-800 dark:text-amber-300" data-testid="image-will-shrink">
                {t('image.willShrink', { max: IMAGE_CONVERSION_LIMITS[conversion].maxInputSide, width: fit.width, height: fit.height })}
              </p>
            )}
          </div>
          <button
            type="button"
            onClick={remove}
            aria-label={t('image.removeLabel', { name: chosen.file.name })}
            className="shrink-0 rounded-full px-3 py-1.5 text-sm font-semibold text-gray-600 hover:bg-gray-100 dark:text-gray-300 dark:hover:bg-gray-800"
          >
            {t('image.remove')}
          </button>
        </div>
      )}
    </div>
  );
}

/**
 * The size of a chosen image and a small preview drawn on a canvas (a data: URL, which the
 * site's content security policy allows where a blob: URL is not); null when the browser cannot
 * decode it (the server has the last word on what it accepts).
 */
async function readImage(file: File): Promise<{ width: number; height: number; thumbnail?: string } | null> {
  if (typeof createImageBitmap !== 'function') return null;
  try {
    const bitmap = await createImageBitmap(file);
    const { width, height } = bitmap;
    let thumbnail: string | undefined;
    const scale = Math.min(1, 128 / Math.max(width, height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    const context = canvas.getContext('2d');
    if (context) {
      context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      thumbnail = canvas.toDataURL('image/png');
    }
    bitmap.close();
    return { width, height, thumbnail };
  } catch {
    return null;
  }
}

/** The image URL field; the hint shows 300 ms after typing stops while the address is not a valid http(s) URL. */
function UrlPanel({ value, invalid, onChange }: { value: string; invalid: boolean; onChange: (value: string, invalid: boolean) => void }) {
  const { t, tag } = usePageI18n();
  const id = useId();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <div>
      <label htmlFor={`${id}-url`} className="block text-sm font-medium">
        {t('image.urlLabel')}
      </label>
      <input
        id={`${id}-url`}
        type="url"
        name="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder={t('image.urlPlaceholder')}
        value={value}
        onChange={(event) => {
          const next = event.target.value;
          onChange(next, false);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => onChange(next, !imageUrlSchema.safeParse(next).success), VALIDATION_DEBOUNCE_MS);
        }}
        aria-invalid={invalid || undefined}
        aria-describedby={`${id}-help${invalid ? ` ${id}-error` : ''}`}
        data-testid="image-url"
        className="mt-1 block w-full rounded-xl border border-gray-300 bg-white px-3.5 py-2.5 text-base shadow-sm outline-none focus:border-primary-500 focus:ring-2 focus:ring-primary-500/30 aria-invalid:border-red-500 dark:border-gray-700 dark:bg-gray-900"
      />
      {invalid && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-600 dark:text-red-400" data-testid="image-url-hint">
          {t('image.urlHint')}
        </p>
      )}
      <p id={`${id}-help`} className={`mt-2 text-sm ${mutedClass}`}>
        {t('image.urlHelp', { max: formatBytes(IMAGE_MAX_BYTES, tag) })}
      </p>
    </div>
  );
}

/** The conversions as radio cards: name, one line on what it does, and the input bound. */
function ConversionChoice({ value, onChange }: { value: ImageConversion; onChange: (value: ImageConversion) => void }) {
  const { t } = usePageI18n();
  const id = useId();
  return (
    <fieldset>
      <legend className="text-sm font-semibold">{t('image.conversion')}</legend>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        {IMAGE_CONVERSIONS.map((conversion) => {
          const keys = CONVERSION_KEYS[conversion];
          const limits = IMAGE_CONVERSION_LIMITS[conversion];
          return (
            <label
              key={conversion}
              className="relative flex cursor-pointer gap-3 rounded-2xl border border-gray-200 p-3 transition sm:p-4 hover:border-primary-400 has-checked:border-primary-600 has-checked:bg-primary-50 has-checked:ring-1 has-checked:ring-primary-600 has-focus-visible:ring-2 has-focus-visible:ring-primary-500/40 dark:border-gray-800 dark:has-checked:border-primary-400 dark:has-checked:bg-primary-950/40 dark:has-checked:ring-primary-400"
            >
              <input
                type="radio"
                name="conversion"
                value={conversion}
                checked={value === conversion}
                onChange={() => onChange(conversion)}
                aria-labelledby={`${id}-${conversion}-name`}
                aria-describedby={`${id}-${conversion}-text ${id}-${conversion}-bound`}
                className="mt-1 size-4 shrink-0 accent-primary-600"
              />
              <span className="min-w-0">
                <span id={`${id}-${conversion}-name`} className="flex items-center gap-2 font-semibold">
                  {t(keys.name)}
                  {limits.scale > 1 && <span aria-hidden="true" className="rounded-md bg-gray-100 px-1.5 text-xs font-bold text-gray-600 dark:bg-gray-800 dark:text-gray-300">{limits.scale}×</span>}
                </span>
                <span id={`${id}-${conversion}-text`} className={`mt-0.5 block text-sm ${mutedClass}`}>
                  {t(keys.description)}
                </span>
                <span id={`${id}-${conversion}-bound`} className="mt-1 block text-xs text-gray-500 dark:text-gray-400">
                  {t('image.bound', { max: limits.maxInputSide })}
                </span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/**
 * The cost, the balance (or the sign-in offer), the submit button and why a submission was refused.
 * On phones it stays at the bottom of the screen, so Convert is in reach below the six conversion
 * cards. The button is never `disabled` while working (that would drop keyboard focus to the page,
 * and the low-credit modal could not give it back, WCAG 2.4.3): it says what runs and does nothing.
 */
function Checkout({ working, problem }: { working: 'sending' | 'converting' | null; problem: string | null }) {
  const { t, tag } = usePageI18n();
  const { trialCredits } = useSiteConfig();
  const session = useSession();
  const credits = useCredits();
  const cost = creditsLabel(t, IMAGE_CREDITS, tag);
  const balance = credits.view?.balance;
  return (
    <div
      className={`${cardClass} max-lg:sticky max-lg:bottom-2 max-lg:z-20 max-lg:!bg-white max-lg:!p-4 max-lg:shadow-xl max-lg:ring-1 max-lg:ring-gray-900/5 lg:sticky lg:top-24 dark:max-lg:!bg-gray-900`}
      data-testid="image-checkout"
    >
      <dl className="space-y-3 max-lg:flex max-lg:flex-wrap max-lg:gap-x-6 max-lg:gap-y-1 max-lg:space-y-0 max-lg:text-sm">
        <div className="flex items-baseline justify-between gap-4">
          <dt className={mutedClass}>{t('image.cost')}</dt>
          <dd className="text-right">
            <span className="text-lg font-bold" data-testid="image-cost">
              {cost}
            </span>{' '}
            <span className={`text-sm ${mutedClass}`}>{t('image.perImage')}</span>
          </dd>
        </div>
        {session.userInfo && (
          <div className="flex items-baseline justify-between gap-4">
            <dt className={mutedClass}>{t('image.balance')}</dt>
            <dd className="font-semibold tabular-nums" data-testid="image-balance" aria-busy={balance === undefined}>
              {balance !== undefined ? creditsLabel(t, balance, tag) : '…'}
            </dd>
          </div>
        )}
      </dl>
      {session.loaded && !session.userInfo && (
        <p className="mt-4 rounded-2xl bg-primary-50 px-4 py-3 text-sm text-primary-900 dark:bg-primary-950/60 dark:text-primary-100" data-testid="image-sign-in-note">
          <Icon name="lock" className="mr-1 inline size-4 align-[-2px]" />
          {t('image.signInToConvert')} {trialCredits > 0 && t('image.signInTrial', { credits: creditsLabel(t, trialCredits, tag) })}
        </p>
      )}
      {balance !== undefined && balance < IMAGE_CREDITS && (
        <p className="mt-4 rounded-2xl bg-amber-50 px-4 py-3 text-sm text-amber-900 max-lg:mt-2 max-lg:py-2 dark:bg-amber-950/50 dark:text-amber-100">
          {t('image.notEnough', { credits: cost })}{' '}
          <Link to="/pricing" className={linkClass}>
            {t('image.getCredits')}
          </Link>
        </p>
      )}
      <button
        type="submit"
        aria-disabled={working ? true : undefined}
        className={`${buttonClass} mt-5 w-full aria-disabled:cursor-progress aria-disabled:opacity-60 max-lg:mt-3`}
        data-testid="image-submit"
      >
        {working && <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent" />}
        {t(working === 'sending' ? 'image.sending' : working === 'converting' ? 'image.converting' : 'image.submit')}
      </button>
      {problem && (
        <p role="alert" className="mt-3 rounded-xl bg-red-50 p-3 text-sm text-red-700 dark:bg-red-950/40 dark:text-red-300" data-testid="image-problem">
          {problem}
        </p>
      )}
      <p className={`mt-4 text-xs max-lg:hidden ${mutedClass}`}>{t('image.kept')}</p>
      <TestModeNote className="mt-4 max-lg:hidden" />
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// The job

/** The job on screen: the wait notice with the queue while it waits and runs, then the result, or why it failed. */
function JobPanel({ job, onAnother }: { job: ImageJobView; onAnother: () => void }) {
  const { t } = usePageI18n();
  const conversion = t(CONVERSION_KEYS[job.conversion].name);

  if (isUnfinished(job)) {
    const estimate = estimateWords(job.queue?.estimate_range);
    return (
      <div className={cardClass}>
        <h2 id="image-job-title" className={`text-sm font-semibold tracking-wide uppercase ${mutedClass}`}>
          {t('image.jobTitle')} · {conversion}
        </h2>
        <div className="mt-3 flex items-start gap-3">
          <span aria-hidden="true" className="mt-1 size-5 shrink-0 animate-spin rounded-full border-2 border-primary-600 border-t-transparent dark:border-primary-400 dark:border-t-transparent" />
          <div className="min-w-0">
            <p role="status" className="text-lg font-semibold" data-testid="image-wait-notice">
              {t('image.waitNotice')}
            </p>
            <p className={`mt-1 ${mutedClass}`} data-testid="image-queue">
              {say(t, queueWords(job))}
              {estimate && ` · ${say(t, estimate)}`}
            </p>
          </div>
        </div>
        {job.status === 'running' ? (
          <RunningProgress key={job.id} estimate={job.queue?.estimate_seconds ?? null} job={job} />
        ) : (
          <ProgressBar value={null} />
        )}
      </div>
    );
  }

  if (job.status === 'failed') {
    return (
      <div role="alert" className="rounded-3xl border border-red-200 bg-red-50 p-6 text-red-900 dark:border-red-900 dark:bg-red-950/40 dark:text-red-100" data-testid="image-failed">
        <h2 id="image-job-title" className="text-lg font-bold">
          {t('image.failedTitle')}
        </h2>
        <p className="mt-1">{job.error?.message ?? t('image.failedUnknown')}</p>
        <p className="mt-1 font-semibold">{t('image.creditReturned')}</p>
        <button type="button" onClick={onAnother} className={`${secondaryButtonClass} mt-4`}>
          {t('image.another')}
        </button>
      </div>
    );
  }

  const limits = IMAGE_CONVERSION_LIMITS[job.conversion];
  return (
    <div className={cardClass}>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div role="status">
          <h2 id="image-job-title" className="text-xl font-bold">
            {t('image.doneTitle')}
          </h2>
          <p className={`mt-1 text-sm ${mutedClass}`}>
            {conversion}
            {job.input && job.result && ` · ${t('image.sizes', { from: `${job.input.width} × ${job.input.height}`, to: `${job.result.width} × ${job.result.height}` })}`}
          </p>
        </div>
        <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
          {job.files && (
            <a href={jobFileUrl(job.id, 'result', true)} download className={buttonClass} data-testid="image-download">
              <Icon name="download" className="size-4" />
              {t('image.download')}
            </a>
          )}
          <button type="button" onClick={onAnother} className={secondaryButtonClass}>
            {t('image.another')}
          </button>
        </div>
      </div>
      {job.input?.shrunk && (
        <p className="mt-4 rounded-2xl bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:bg-amber-950/50 dark:text-amber-100" data-testid="image-shrunk">
          {t('image.shrunkNote', { max: limits.maxInputSide, width: job.input.width, height: job.input.height })}
        </p>
      )}
      <div className="mt-5">
        {job.files && job.result && job.input ? (
          <Compare job={job} result={job.result} input={job.input} />
        ) : (
          <p className={mutedClass}>{t('image.filesGone')}</p>
        )}
      </div>
    </div>
  );
}

/** Progress of a running job: the time since it started against the estimate it had then (never past 95%). */
function RunningProgress({ job, estimate }: { job: ImageJobView; estimate: number | null }) {
  const [ticks, setTicks] = useState(0);
  const [atStart] = useState(estimate);
  useEffect(() => {
    const timer = setInterval(() => setTicks((n) => n + 1), 250);
    return () => clearInterval(timer);
  }, []);
  return <ProgressBar value={progressOf(job, ticks / 4, atStart)} />;
}

function ProgressBar({ value }: { value: number | null }) {
  const { t } = usePageI18n();
  return (
    <div
      role="progressbar"
      aria-label={t('image.progress')}
      aria-valuemin={value === null ? undefined : 0}
      aria-valuemax={value === null ? undefined : 100}
      aria-valuenow={value === null ? undefined : Math.round(value * 100)}
      className="mt-5 h-2 overflow-hidden rounded-full bg-gray-100 dark:bg-gray-800"
    >
      <div
        className={`h-full rounded-full bg-primary-500 transition-[width] duration-300 ${value === null ? 'w-full animate-pulse opacity-60' : ''}`}
        style={value === null ? undefined : { width: `${Math.max(4, value * 100)}%` }}
      />
    </div>
  );
}

/**
 * Before and after on top of each other, at the result's size: a slider (a range input, so the
 * keyboard moves it too) shows the input as converted on its left and the result on its right.
 */
function Compare({ job, input, result }: { job: ImageJobView; input: NonNullable<ImageJobView['input']>; result: NonNullable<ImageJobView['result']> }) {
  const { t } = usePageI18n();
  const [split, setSplit] = useState(50);
  const ratio = result.width / result.height;
  const tagClass = 'pointer-events-none absolute top-3 rounded-full bg-gray-950/70 px-2.5 py-1 text-xs font-semibold text-white';
  return (
    <figure>
      <div
        className="relative mx-auto w-full overflow-hidden rounded-2xl bg-gray-100 select-none has-focus-visible:ring-2 has-focus-visible:ring-primary-500 dark:bg-gray-800"
        style={{ aspectRatio: `${result.width} / ${result.height}`, maxWidth: `min(100%, ${Math.max(result.width, 320)}px, calc(70vh * ${ratio.toFixed(4)}))` }}
      >
        <img src={jobFileUrl(job.id, 'result')} alt={t('image.afterAlt', { width: result.width, height: result.height })} className="absolute inset-0 size-full object-contain" data-testid="image-result" />
        <img
          src={jobFileUrl(job.id, 'preview')}
          alt={t('image.beforeAlt', { width: input.width, height: input.height })}
          className="absolute inset-0 size-full object-contain"
          style={{ clipPath: `inset(0 ${100 - split}% 0 0)` }}
          data-testid="image-preview"
        />
        <div aria-hidden="true" className="pointer-events-none absolute inset-y-0 w-0.5 -translate-x-1/2 bg-white shadow-[0_0_0_1px_rgba(0,0,0,0.25)]" style={{ left: `${split}%` }}>
          <span className="absolute top-1/2 left-1/2 flex size-9 -translate-1/2 items-center justify-center rounded-full bg-white text-gray-900 shadow-md">
            <Icon name="chevronLeft" className="size-4" />
            <Icon name="chevronRight" className="-ml-1 size-4" />
          </span>
        </div>
        <span className={`${tagClass} left-3`} aria-hidden="true">
          {t('image.before')}
        </span>
        <span className={`${tagClass} right-3`} aria-hidden="true">
          {t('image.after')}
        </span>
        <input
          type="range"
          min={0}
          max={100}
          value={split}
          onChange={(event) => setSplit(Number(event.target.value))}
          aria-label={t('image.compare')}
          aria-valuetext={`${t('image.before')} ${split}%, ${t('image.after')} ${100 - split}%`}
          data-testid="image-compare"
          className="absolute inset-0 size-full cursor-ew-resize opacity-0"
        />
      </div>
      <figcaption className={`mt-2 flex justify-between text-sm ${mutedClass}`}>
        <span>
          {t('image.before')}: {input.width} × {input.height} px
        </span>
        <span>
          {t('image.after')}: {result.width} × {result.height} px
        </span>
      </figcaption>
    </figure>
  );
}

// ---------------------------------------------------------------------------------------------
// The history

/** The user's images, newest first, 20 a page: thumbnail, conversion, status, credits, date, view and download. */
function History({ remote, retry, onPage, onView }: { remote: Remote<Paged<ImageJobView>>; retry: () => void; onPage: (page: number) => void; onView: (job: ImageJobView) => void }) {
  const { t, tag } = usePageI18n();
  return (
    <Account
      remote={remote}
      retry={retry}
      signIn={t('image.historySignIn')}
      ready={(jobs) =>
        jobs.total === 0 ? (
          <p className={`${cardClass} ${mutedClass}`}>{t('image.historyEmpty')}</p>
        ) : (
          <>
            <ul className="divide-y divide-gray-200 rounded-3xl border border-gray-200 bg-white shadow-sm dark:divide-gray-800 dark:border-gray-800 dark:bg-gray-900/60" data-testid="image-history">
              {jobs.items.map((job) => {
                const conversion = t(CONVERSION_KEYS[job.conversion].name);
                const date = formatDateTime(job.created_at, tag);
                return (
                  <li key={job.id} data-job={job.id} data-status={job.status} className="flex flex-wrap items-center gap-x-4 gap-y-3 px-4 py-3 sm:flex-nowrap sm:px-6">
                    <Thumbnail job={job} />
                    <div className="min-w-0 flex-1">
                      <p className="flex flex-wrap items-center gap-2">
                        <span className="font-semibold">{conversion}</span>
                        <Badge tone={jobStatusTone(job.status)}>{t(JOB_STATUS_KEYS[job.status])}</Badge>
                      </p>
                      <p className={`mt-0.5 text-xs ${mutedClass}`}>
                        <time dateTime={job.created_at}>{date}</time> · {t(job.source === 'url' ? 'image.fromUrl' : 'image.fromUpload')}
                        {job.result && ` · ${job.result.width} × ${job.result.height} px`}
                      </p>
                    </div>
                    <p className="shrink-0 text-sm tabular-nums">
                      {job.status === 'failed' ? <span className={mutedClass}>{t('image.returned')}</span> : creditsLabel(t, job.credits, tag)}
                    </p>
                    <div className="flex shrink-0 gap-2 max-sm:w-full max-sm:justify-end">
                      <button
                        type="button"
                        onClick={() => onView(job)}
                        aria-label={t('image.viewLabel', { conversion, date })}
                        className="rounded-full px-3 py-1.5 text-sm font-semibold text-primary-700 hover:bg-primary-50 dark:text-primary-400 dark:hover:bg-gray-800"
                      >
                        {t('image.view')}
                      </button>
                      {job.status === 'succeeded' && job.files && (
                        <a
                          href={jobFileUrl(job.id, 'result', true)}
                          download
                          className="inline-flex items-center gap-1 rounded-full border border-gray-300 px-3 py-1.5 text-sm font-semibold hover:bg-gray-50 dark:border-gray-700 dark:hover:bg-gray-800"
                        >
                          <Icon name="download" className="size-4" />
                          {t('image.download')}
                        </a>
                      )}
                    </div>
                  </li>
                );
              })}
            </ul>
            <Pager page={jobs.page} pages={jobs.pages} onPage={onPage} />
          </>
        )
      }
    />
  );
}

function Thumbnail({ job }: { job: ImageJobView }) {
  const [broken, setBroken] = useState(false);
  const box = 'size-14 shrink-0 rounded-xl bg-gray-100 dark:bg-gray-800';
  if (job.status !== 'succeeded' || !job.files || broken) {
    return (
      <span className={`${box} flex items-center justify-center text-gray-400`} aria-hidden="true">
        <Icon name={job.status === 'failed' ? 'close' : job.status === 'succeeded' ? 'eye' : 'clock'} className="size-5" />
      </span>
    );
  }
  return <img src={jobFileUrl(job.id, 'thumbnail')} alt="" loading="lazy" onError={() => setBroken(true)} className={`${box} object-cover`} />;
}
