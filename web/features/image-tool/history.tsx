import { useState } from 'react';
import type { Paged } from 'src/contracts/billing';
import type { ImageJobView } from 'src/contracts/images';
import { Account, Badge, cardClass, mutedClass, Pager, type Remote } from 'web/components/account-ui';
import { Icon } from 'web/components/icons';
import { useAccountI18n } from 'web/i18n/account-messages';
import { formatDateTime } from 'web/lib/billing-format';
import { creditsLabel } from 'web/lib/credits';
import { downloadName, FORMAT_LABELS, JOB_STATUS_KEYS, jobFileUrl, jobStatusTone } from 'web/lib/image-tool';
import { jobLabel } from 'web/features/image-tool/job-panel';

/** The user's images, newest first, 20 a page: thumbnail, conversion, status, credits, date, view and download. */
export function History({ remote, retry, onPage, onView }: { remote: Remote<Paged<ImageJobView>>; retry: () => void; onPage: (page: number) => void; onView: (job: ImageJobView) => void }) {
  const { t, tag } = useAccountI18n();
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
                const conversion = jobLabel(t, job);
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
                        {job.result && ` · ${job.result.width} × ${job.result.height} px · ${FORMAT_LABELS[job.result_format ?? 'png'].label}`}
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
                          download={downloadName(job)}
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
