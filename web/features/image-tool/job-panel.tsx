import { useEffect, useState } from 'react';
import type { ImageJobView } from 'src/contracts/images';
import { buttonClass, cardClass, mutedClass, secondaryButtonClass } from 'web/components/account-ui';
import { Icon } from 'web/components/icons';
import { useAccountI18n, type AccountTranslate } from 'web/i18n/account-messages';
import { clockTime, CONVERSION_KEYS, downloadName, estimateWords, FORMAT_LABELS, isUnfinished, jobFileUrl, progressOf, queueWords, reportedProgress } from 'web/lib/image-tool';
import { Compare } from 'web/features/image-tool/compare';
import { say } from 'web/features/image-tool/image-tool-common';

/** "AI upscale 2x · 3x", "AI upscale 2x · 1x clean-up", "Pencil sketch": the conversion with the size asked for. */
export function jobLabel(t: AccountTranslate, job: Pick<ImageJobView, 'conversion' | 'options'>): string {
  const name = t(CONVERSION_KEYS[job.conversion].name);
  // Answers from before the options existed have none.
  const options = job.options as ImageJobView['options'] | undefined;
  if (options?.width) return `${name} · ${t('image.labelWidth', { width: options.width })}`;
  if (options?.scale === 1) return `${name} · ${t('image.labelCleanup')}`;
  if (options?.scale) return `${name} · ${t('image.labelScale', { scale: options.scale })}`;
  return name;
}

/** The job on screen: the wait notice with the queue and progress while it waits and runs, then the result, or why it failed. */
/** What the worker says about a finished result (the job's `notes`). */
const NOTE_KEYS = { 'first-frame': 'image.noteFirstFrame', flattened: 'image.noteFlattened', 'repeat-credit-returned': 'image.noteRepeatReturned' } as const;

export function JobPanel({ job, onAnother }: { job: ImageJobView; onAnother: () => void }) {
  const { t, tag } = useAccountI18n();
  const conversion = jobLabel(t, job);

  if (isUnfinished(job)) {
    const estimate = estimateWords(job.queue?.estimate_range);
    const reported = reportedProgress(job);
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
        {/* The worker's own count of tiles done when it reports one; else time against the estimate. */}
        {reported !== null ? (
          <ProgressBar value={reported} />
        ) : job.status === 'running' ? (
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

  return (
    <div className={cardClass}>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div role="status">
          <h2 id="image-job-title" className="text-xl font-bold">
            {t('image.doneTitle')}
          </h2>
          <p className={`mt-1 text-sm ${mutedClass}`}>{conversion}</p>
          {job.result && (
            <p className="mt-0.5 text-sm font-semibold tabular-nums" data-testid="image-result-size">
              {t('image.resultSize', { width: job.result.width, height: job.result.height, format: FORMAT_LABELS[job.result_format ?? 'png'].label })}
            </p>
          )}
          {job.repeat && (
            <p className="mt-2 rounded-xl bg-primary-50 px-3 py-2 text-sm text-primary-900 dark:bg-primary-950/60 dark:text-primary-100" data-testid="image-repeat">
              {t('image.repeat', { time: clockTime(job.repeat.converted_at, tag) })}
            </p>
          )}
          {job.notes.length > 0 && (
            <ul className={`mt-2 list-disc pl-5 text-sm ${mutedClass}`} data-testid="image-notes">
              {job.notes.map((note) => (
                <li key={note}>{t(NOTE_KEYS[note])}</li>
              ))}
            </ul>
          )}
        </div>
        <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
          {job.files && (
            <a href={jobFileUrl(job.id, 'result', true)} download={downloadName(job)} className={buttonClass} data-testid="image-download">
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
          {t('image.shrunkNote', { width: job.input.width, height: job.input.height })}
        </p>
      )}
      <div className="mt-5">
        {job.files && job.result && job.input ? <Compare job={job} result={job.result} input={job.input} /> : <p className={mutedClass}>{t('image.filesGone')}</p>}
      </div>
    </div>
  );
}

/** Progress of a running job without a reported count: the time since it started against the estimate it had then (never past 95%). */
function RunningProgress({ job, estimate }: { job: ImageJobView; estimate: number | null }) {
  const [ticks, setTicks] = useState(0);
  const [atStart] = useState(estimate);
  useEffect(() => {
    const timer = setInterval(() => setTicks((n) => n + 1), 250);
    return () => clearInterval(timer);
  }, []);
  return <ProgressBar value={progressOf(job, ticks / 4, atStart)} />;
}

export function ProgressBar({ value }: { value: number | null }) {
  const { t } = useAccountI18n();
  return (
    <div
      role="progressbar"
      aria-label={t('image.progress')}
      aria-valuemin={value === null ? undefined : 0}
      aria-valuemax={value === null ? undefined : 100}
      aria-valuenow={value === null ? undefined : Math.round(value * 100)}
      className="mt-5 h-2 overflow-hidden rounded-full bg-gray-100 dark:bg-gray-800"
      data-testid="image-progress"
    >
      <div
        className={`h-full rounded-full bg-primary-500 transition-[width] duration-300 ${value === null ? 'w-full animate-pulse opacity-60' : ''}`}
        style={value === null ? undefined : { width: `${Math.max(4, value * 100)}%` }}
      />
    </div>
  );
}
