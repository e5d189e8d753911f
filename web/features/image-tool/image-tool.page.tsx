import 'web/lib/zod-jitless';
import type { FormEvent } from 'react';
import { isAiConversion } from 'src/contracts/images';
import { cardClass, mutedClass } from 'web/components/account-ui';
import { Seo } from 'web/components/seo';
import { TestModeNote } from 'web/components/test-mode-note';
import { useAccountI18n } from 'web/i18n/account-messages';
import { estimatePath, expectedTimeWords } from 'web/lib/image-tool';
import { Checkout } from 'web/features/image-tool/checkout';
import { ConversionChoice } from 'web/features/image-tool/conversion-choice';
import { History } from 'web/features/image-tool/history';
import { dimensions, say } from 'web/features/image-tool/image-tool-common';
import { JobPanel } from 'web/features/image-tool/job-panel';
import { OptionsPanel } from 'web/features/image-tool/options-panel';
import { PlanSummary } from 'web/features/image-tool/plan-summary';
import { SourceTabs } from 'web/features/image-tool/source-tabs';
import { UploadPanel } from 'web/features/image-tool/upload-panel';
import { UrlPanel } from 'web/features/image-tool/url-panel';
import { useEstimate } from 'web/features/image-tool/use-estimate';
import { useImageForm } from 'web/features/image-tool/use-image-form';
import { useImageJobs } from 'web/features/image-tool/use-image-jobs';

/**
 * /tools/image: the image converter (upload or image URL, a conversion and its options, 1 credit
 * an image) with what it will give and take before Convert, the job while it waits and runs, the
 * before/after comparison with its download, and the history of the user's images. The HTML is the
 * same for everyone (cached); the user's part loads in the browser. 404 while payments are off
 * (its loader). State: the form in useImageForm, the jobs in useImageJobs.
 */
export default function ImageToolPage() {
  const { t } = useAccountI18n();
  const form = useImageForm();
  const { job, jobPanel, working, problem, clearProblem, submit: send, show, dismiss, history, retryHistory, setHistoryPage } = useImageJobs();
  const estimate = useEstimate(form.size && form.plan ? estimatePath(form.request, form.size.width, form.size.height) : null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (working) return;
    const submission = form.check();
    if (submission) void send(submission);
  };

  const time = expectedTimeWords(estimate.estimate?.seconds);
  // The plan in short beside Convert (on a phone, in the card at the bottom of the screen).
  const summary = form.plan && (
    <>
      <span className="whitespace-nowrap">→ {dimensions(form.plan.result)} px</span>
      {time && (
        <>
          {' · '}
          <span className="whitespace-nowrap">{say(t, time)}</span>
        </>
      )}
    </>
  );

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
          <JobPanel job={job} onAnother={dismiss} />
        </section>
      )}

      <form noValidate onSubmit={submit} className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start" aria-label={t('image.title')}>
        <div className={`${cardClass} min-w-0 space-y-8 max-sm:p-4`}>
          <SourceTabs
            source={form.source}
            onSource={form.setSource}
            upload={
              <UploadPanel
                chosen={form.chosen}
                missing={form.missing}
                onChoose={(next) => {
                  form.choose(next);
                  clearProblem();
                }}
              />
            }
            url={
              <UrlPanel
                value={form.url}
                invalid={form.urlInvalid}
                onChange={(value, invalid) => {
                  form.setUrl(value, invalid);
                  clearProblem();
                }}
              />
            }
          />
          {(form.size || form.source === 'url') && (
            <PlanSummary
              size={form.size}
              plan={form.plan}
              ai={isAiConversion(form.request.conversion)}
              estimate={estimate}
              traits={form.source === 'upload' ? (form.chosen?.traits ?? null) : null}
              resultFormat={form.resultFormat}
              onCleanup={() => form.setChoices({ ...form.choices, choice: isAiConversion(form.choices.choice) ? form.choices.choice : 'ai-2x', size: { kind: 'scale', scale: 1 } })}
            />
          )}
          <ConversionChoice value={form.choices.choice} onChange={(choice) => form.setChoices({ ...form.choices, choice })} />
          <OptionsPanel choices={form.choices} onChange={form.setChoices} fileType={form.fileType} widthError={form.widthError} onWidthBlur={form.touchWidth} />
        </div>
        <Checkout working={working} problem={problem} summary={summary} />
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
