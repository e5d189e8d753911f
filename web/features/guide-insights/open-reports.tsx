import { useState } from 'react';
import type { GuideInsightRow } from 'src/contracts/guide-insights';
import type { GuideReportKind, GuideReportView } from 'src/contracts/guide-reports';
import { Badge, cardClass, linkClass, mutedClass, secondaryButtonClass } from 'web/components/account-ui';
import { useAccountI18n, type AccountMessageKey } from 'web/i18n/account-messages';
import { ApiError, apiRequest } from 'web/lib/api';
import { Link } from 'web/lib/router/router';
import { notify } from 'web/lib/toasts';
import { utc } from 'web/features/ops/admin-frame';

/** The kinds in the words players chose them by (the report form's copy). */
const KIND_KEYS: Record<GuideReportKind, AccountMessageKey> = {
  wrong_step: 'report.kindWrongStep',
  video_mismatch: 'report.kindVideoMismatch',
  other: 'report.kindOther',
};

/** The open reports of the guides on the page, newest first, each with its "Mark handled". */
export function OpenReports({ guides, onChange }: { guides: GuideInsightRow[]; onChange: () => void }) {
  return (
    <section aria-labelledby="reports-title" className="mt-10">
      <h2 id="reports-title" className="text-xl font-bold">
        Open reports
      </h2>
      <p className={`mt-1 text-sm ${mutedClass}`}>
        &ldquo;Something wrong with this guide?&rdquo; reports of the guides above, newest first. Mark one handled once the guide is fixed, or there
        was nothing to fix: it leaves this list (reports are deleted after 180 days).
      </p>
      <div className="mt-3 space-y-4">
        {guides.map((guide) => (
          <article key={guide.level} id={`reports-${guide.level}`} aria-labelledby={`reports-${guide.level}-title`} className={`${cardClass} scroll-mt-20 !p-5`}>
            <h3 id={`reports-${guide.level}-title`} className="font-semibold">
              <Link to={`/levels/${guide.level}`} className={linkClass}>
                Level {guide.level}
              </Link>{' '}
              {guide.title}: {guide.open_reports} open
            </h3>
            <ul className="mt-3 divide-y divide-gray-200 dark:divide-gray-800" data-testid={`reports-${guide.level}`}>
              {guide.reports.map((report) => (
                <Report key={report.id} report={report} onChange={onChange} />
              ))}
            </ul>
            {guide.open_reports > guide.reports.length && (
              <p className={`mt-2 text-sm ${mutedClass}`}>
                The newest {guide.reports.length} of {guide.open_reports}: the others show as these are handled.
              </p>
            )}
          </article>
        ))}
      </div>
    </section>
  );
}

function Report({ report, onChange }: { report: GuideReportView; onChange: () => void }) {
  const { t } = useAccountI18n();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const markHandled = async () => {
    setBusy(true);
    setProblem(null);
    try {
      // Idempotent: a second click, or another admin first, answers the same.
      await apiRequest(t, 'PUT', `/api/v1/admin/guide_reports/${encodeURIComponent(report.id)}/handled`);
      notify(`Report on level ${report.level_number} marked handled`);
      onChange();
    } catch (error) {
      if (error instanceof ApiError) setProblem(error.message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="flex flex-wrap items-start gap-x-4 gap-y-2 py-3" data-report={report.id}>
      <div className="min-w-0 flex-1 basis-64">
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <Badge tone="amber">{t(KIND_KEYS[report.kind])}</Badge>
          <time dateTime={report.created_at} className={mutedClass}>
            {utc(report.created_at)}
          </time>
        </p>
        <p className={`mt-1 text-sm break-words whitespace-pre-wrap ${report.message ? '' : mutedClass}`}>{report.message ?? 'No message.'}</p>
        {problem && (
          <p role="alert" className="mt-1 text-sm text-red-700 dark:text-red-400">
            {problem}
          </p>
        )}
      </div>
      <button type="button" onClick={() => void markHandled()} disabled={busy} className={`${secondaryButtonClass} shrink-0`}>
        Mark handled
      </button>
    </li>
  );
}
