import { useState, useSyncExternalStore, type FormEvent } from 'react';
import { GUIDE_REPORT_MESSAGE_MAX, reportKindsFor, type GuideReportKind } from 'src/contracts/guide-reports';
import { Icon } from 'web/components/icons';
import { Breadcrumbs } from 'web/components/level-bits';
import { Seo } from 'web/components/seo';
import { useAccountI18n, type AccountMessageKey } from 'web/i18n/account-messages';
import { Link, useLoaderData } from 'web/lib/router/router';
import type loader from 'web/features/guide-reports/guide-report.loader';

const KIND_LABELS: Record<GuideReportKind, AccountMessageKey> = {
  wrong_step: 'report.kindWrongStep',
  video_mismatch: 'report.kindVideoMismatch',
  other: 'report.kindOther',
};

const noSubscription = () => () => undefined;
/** False on the server and while hydrating, true once React runs in the browser: the form sends only then. */
const useHydrated = () => useSyncExternalStore(noSubscription, () => true, () => false);

/**
 * "Something wrong with this guide?": the report form of one guide. The API takes JSON only, so the
 * form sends with JavaScript; without it the page shows the form disabled and says why.
 */
export default function GuideReportPage() {
  const page = useLoaderData<typeof loader>();
  const { number, title } = page;
  const { t } = useAccountI18n();
  const hydrated = useHydrated();
  const [kind, setKind] = useState<GuideReportKind>();
  const [message, setMessage] = useState('');
  const [state, setState] = useState<'editing' | 'sending' | 'sent'>('editing');
  const [error, setError] = useState<string>();
  const guide = `/levels/${number}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!kind) return;
    setState('sending');
    setError(undefined);
    let api: typeof import('web/lib/api') | undefined;
    try {
      // The API client loads with the first report, not with the page.
      api = await import('web/lib/api');
      await api.apiRequest(t, 'POST', `/api/v1/levels/${number}/reports`, { kind, ...(message.trim() ? { message } : {}) });
      setState('sent');
    } catch (e) {
      setError(t(api && e instanceof api.ApiError && e.status === 429 ? 'report.tooMany' : 'report.failed'));
      setState('editing');
    }
  }

  return (
    <main className="mx-auto max-w-2xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={t('report.seoTitle', { level: number })} noindex />
      <Breadcrumbs
        items={[
          { label: t('menu.home'), to: '/' },
          { label: t('menu.levels'), to: '/levels' },
          { label: t('level.number', { level: number }), to: guide },
          { label: t('report.crumb') },
        ]}
      />
      <p className="mt-6 text-sm font-semibold tracking-wide text-primary-700 uppercase dark:text-primary-400">{t('report.kicker', { level: number, title })}</p>
      <h1 className="mt-1 text-2xl font-extrabold tracking-tight sm:text-3xl">{t('report.title')}</h1>

      {state === 'sent' ? (
        <div className="mt-6 rounded-2xl bg-primary-50 p-5 dark:bg-primary-950">
          <p role="status" className="flex items-center gap-2 font-semibold text-primary-800 dark:text-primary-300">
            <Icon name="check" className="size-5" />
            {t('report.thanks', { level: number })}
          </p>
          <Link to={guide} className="mt-3 inline-flex items-center gap-1 text-sm font-medium text-primary-700 hover:underline dark:text-primary-400">
            <Icon name="arrowLeft" className="size-4" /> {t('report.back')}
          </Link>
        </div>
      ) : (
        <form onSubmit={(event) => void submit(event)} className="mt-6 space-y-6 rounded-2xl border border-gray-200 p-5 sm:p-6 dark:border-gray-800">
          <p className="text-gray-600 dark:text-gray-400">{t('report.intro')}</p>
          <fieldset>
            <legend className="font-semibold">{t('report.kindLegend')}</legend>
            <div className="mt-3 flex flex-col gap-2">
              {reportKindsFor(page).map((k) => (
                <label key={k} className="inline-flex cursor-pointer items-center gap-2">
                  <input type="radio" name="kind" value={k} required checked={kind === k} onChange={() => setKind(k)} className="accent-primary-600" />
                  {t(KIND_LABELS[k])}
                </label>
              ))}
            </div>
          </fieldset>
          <div>
            <label htmlFor="report-message" className="block font-semibold">
              {t('report.messageLabel')}
            </label>
            <textarea
              id="report-message"
              name="message"
              rows={5}
              maxLength={GUIDE_REPORT_MESSAGE_MAX}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              placeholder={t('report.messageHint')}
              aria-describedby="report-message-count"
              className="mt-2 block w-full rounded-xl border border-gray-300 bg-white px-3.5 py-2.5 text-base shadow-sm outline-none focus:border-primary-500 focus:ring-2 focus:ring-primary-500/30 dark:border-gray-700 dark:bg-gray-900"
            />
            <p id="report-message-count" className="mt-1 text-right text-xs text-gray-500 dark:text-gray-400">
              {t('report.count', { count: message.length, max: GUIDE_REPORT_MESSAGE_MAX })}
            </p>
          </div>
          <noscript>
            <p className="text-sm font-medium text-red-600 dark:text-red-400">{t('report.noScript')}</p>
          </noscript>
          {error && (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {error}
            </p>
          )}
          <div className="flex flex-wrap items-center gap-4">
            <button
              type="submit"
              disabled={!hydrated || state === 'sending'}
              className="inline-flex items-center justify-center rounded-full bg-primary-700 px-5 py-2.5 font-semibold text-white shadow-sm transition hover:bg-primary-800 disabled:opacity-60 dark:bg-primary-500 dark:text-gray-950 dark:hover:bg-primary-400"
            >
              {t(state === 'sending' ? 'report.sending' : 'report.send')}
            </button>
            <Link to={guide} className="text-sm font-medium text-primary-700 hover:underline dark:text-primary-400">
              {t('report.back')}
            </Link>
          </div>
        </form>
      )}
    </main>
  );
}
