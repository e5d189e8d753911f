import { useState, useSyncExternalStore } from 'react';
import { continueAt, type ProgressLevels } from 'src/contracts/progress';
import { toExport } from 'src/contracts/progress-sync';
import { Breadcrumbs } from 'web/components/level-bits';
import { Seo } from 'web/components/seo';
import { usePageI18n } from 'web/i18n/page-messages';
import { readProgress, useProgress, writeProgress } from 'web/lib/progress';
import { Link, useLoaderData } from 'web/lib/router/router';
import { sessionStore } from 'web/lib/session';
import type loader from 'web/features/progress/progress.loader';

const noSubscription = () => () => undefined;

const levelsIn = (progress: ProgressLevels, state: 'solved' | 'stuck') =>
  Object.entries(progress)
    .filter(([, entry]) => entry.state === state)
    .map(([level]) => Number(level))
    .sort((a, b) => a - b);

/** /progress: this browser's marks (and the account's, synced, when signed in), with export and clear. */
export default function ProgressPage() {
  const { t } = usePageI18n();
  const { guides } = useLoaderData<typeof loader>();
  const progress = useProgress();
  // The HTML is the same for everyone: until hydrated, a neutral "loading" rather than a wrong "no progress yet".
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  const session = useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.serverGet);
  const [confirming, setConfirming] = useState(false);
  const [status, setStatus] = useState<{ text: string; error?: boolean }>();
  const solved = levelsIn(progress, 'solved');
  const stuck = levelsIn(progress, 'stuck');
  const next = continueAt(progress, guides);
  const signedIn = Boolean(session.userInfo);

  async function exportJson() {
    // Signed in: the account's marks from other devices first.
    if (signedIn) await (await import('web/lib/progress-sync')).syncNow();
    const blob = new Blob([JSON.stringify(toExport(readProgress(), Date.now()), null, 2)], { type: 'application/json' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = `progress-${new Date().toISOString().slice(0, 10)}.json`;
    link.click();
    URL.revokeObjectURL(link.href);
  }

  async function clear() {
    setConfirming(false);
    try {
      // The account first: cleared in the browser only, the next sync would bring it all back.
      if (signedIn) {
        const { apiRequest } = await import('web/lib/api');
        await apiRequest(t, 'DELETE', '/api/v1/me/progress');
      }
      writeProgress({});
      setStatus({ text: t('myProgress.cleared') });
    } catch (e) {
      setStatus({ text: t('myProgress.clearFailed', { message: (e as Error).message }), error: true });
    }
  }

  const button = 'rounded-full border border-gray-300 px-4 py-2 text-sm font-semibold hover:border-primary-500 dark:border-gray-700';
  const section = (id: string, heading: string, levels: number[]) => (
    <section aria-labelledby={`${id}-heading`} className="mt-8">
      <h2 id={`${id}-heading`} className="text-lg font-bold">
        {heading} ({levels.length})
      </h2>
      <ul className="mt-3 flex flex-wrap gap-2">
        {levels.map((level) => (
          <li key={level}>
            <Link to={`/levels/${level}`} className="inline-block rounded-full bg-gray-100 px-3 py-1 text-sm font-semibold hover:bg-primary-100 dark:bg-gray-800 dark:hover:bg-primary-900">
              {t('level.number', { level })}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );

  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo title={t('myProgress.seoTitle')} description={t('myProgress.seoDescription')} noindex />
      <Breadcrumbs items={[{ label: t('menu.home'), to: '/' }, { label: t('myProgress.heading') }]} />
      <h1 className="mt-6 text-3xl font-extrabold tracking-tight sm:text-4xl">{t('myProgress.heading')}</h1>
      <p className="mt-3 text-gray-600 dark:text-gray-400">{t('myProgress.intro')}</p>
      {session.userInfo && <p className="mt-3 text-sm font-medium">{t('myProgress.inAccount', { email: session.userInfo.email })}</p>}

      {!hydrated ? (
        <p aria-busy="true" className="mt-8 text-gray-500 dark:text-gray-400">
          {t('myProgress.loading')}
        </p>
      ) : solved.length + stuck.length === 0 ? (
        <div className="mt-8 rounded-2xl border border-dashed border-gray-300 p-8 text-center dark:border-gray-700">
          <p>{t('myProgress.empty')}</p>
          <Link to="/levels" className="mt-3 inline-block font-semibold text-primary-700 underline underline-offset-2 dark:text-primary-400">
            {t('myProgress.browse')}
          </Link>
        </div>
      ) : (
        <>
          <p className="mt-8 text-lg font-semibold">{t('myProgress.summary', { solved: solved.length, stuck: stuck.length })}</p>
          {next !== undefined && (
            <Link to={`/levels/${next}`} className="mt-3 inline-block rounded-full bg-primary-700 px-5 py-2 font-semibold text-white hover:bg-primary-800 dark:bg-primary-500 dark:text-gray-950">
              {t('home.continue', { level: next })}
            </Link>
          )}
          {solved.length > 0 && section('solved', t('myProgress.solvedHeading'), solved)}
          {stuck.length > 0 && section('stuck', t('myProgress.stuckHeading'), stuck)}
          <div className="mt-10 flex flex-wrap gap-3">
            <button type="button" onClick={() => void exportJson()} className={button}>
              {t('myProgress.export')}
            </button>
            <button type="button" onClick={() => setConfirming(true)} className={`${button} text-red-700 dark:text-red-400`}>
              {t('myProgress.clear')}
            </button>
          </div>
        </>
      )}
      {confirming && (
        <div role="alertdialog" aria-labelledby="clear-question" className="mt-4 rounded-2xl border border-red-200 bg-red-50 p-5 dark:border-red-900 dark:bg-red-950">
          <p id="clear-question" className="font-semibold">
            {t('myProgress.clearConfirm', { account: signedIn ? t('myProgress.clearAccount') : '' })}
          </p>
          <div className="mt-3 flex gap-2">
            <button type="button" onClick={() => void clear()} className="rounded-full bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800">
              {t('myProgress.clearYes')}
            </button>
            <button type="button" onClick={() => setConfirming(false)} className={button}>
              {t('myProgress.clearNo')}
            </button>
          </div>
        </div>
      )}
      {status && (
        <p role={status.error ? 'alert' : 'status'} className={`mt-4 text-sm font-medium ${status.error ? 'text-red-700 dark:text-red-400' : ''}`}>
          {status.text}
        </p>
      )}
    </main>
  );
}
