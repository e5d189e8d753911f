import { useCallback, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { dateFormat } from 'src/contracts/date-format';
import { hintsRevealedKey } from 'src/contracts/inline-scripts';
import { playableVideo, STEPS_QUERY, type GuideStep, type LevelDetail } from 'src/contracts/levels';
import { LEVEL_LADDER } from 'src/contracts/progress';
import { GuideFeedback } from 'web/components/guide-feedback';
import { ProgressMarks, type LadderInView } from 'web/components/progress-marks';
import { Icon } from 'web/components/icons';
import { Breadcrumbs, DifficultyBadge, JsonLd, ReferenceTime } from 'web/components/level-bits';
import { Seo } from 'web/components/seo';
import { VideoFacade } from 'web/components/video-facade';
import { useI18n, useT } from 'web/i18n/i18n';
import { levelCrumbs, PrevNext } from 'web/features/levels/level-nav';
import { FoldedExtras, FoldedLadder, FoldedPicker, FoldedSteps } from 'web/features/levels/folded-parts';
import { PUZZLES_ID, STEPS_ID, stepsId } from 'web/features/levels/puzzle-ids';
import { useParseTimeScripts } from 'web/lib/render-context';
import { useSiteConfig } from 'web/lib/root-data';
import { readStored } from 'web/lib/stored-state';
import { Link, useLoaderData } from 'web/lib/router/router';
import type loader from 'web/features/levels/level.loader';
import levelJsonLd from 'web/features/levels/level-json-ld.server';

/** A message with its values as nodes of their own, as JSX renders `text {value}`. */
const withNodes = (message: string, values: Record<string, ReactNode>): ReactNode[] =>
  message
    .split(/\{(\w+)\}/)
    .map((part, i) => (i % 2 ? (values[part] ?? `{${part}}`) : part))
    .filter((part) => part !== '');

/** `toggle` does not bubble: listened for in the capture phase. */
const onToggle = (changed: () => void) => {
  document.addEventListener('toggle', changed, true);
  return () => document.removeEventListener('toggle', changed, true);
};
/** The open puzzle ("Still stuck" offers its next rung): the main escape's (one at most), else an open extra's. */
const openPuzzleId = () => document.querySelector<HTMLElement>('details[data-puzzle][open]')?.dataset.puzzle ?? null;
const firstMoment = (steps: GuideStep[]) => steps.find((step) => step.atSeconds !== undefined)?.atSeconds;
const revealedOf = (level: number, puzzle?: string) => Number(readStored(hintsRevealedKey(level, puzzle))) || 0;

/**
 * How many hints of each ladder this browser revealed when it taps (where players stop): "Still
 * stuck" is about the ladder in view only; "Solved it" about every ladder it opened or used.
 */
function stopsAt(level: LevelDetail, open: string | null, state: 'solved' | 'stuck'): Record<string, number> {
  if (!level.puzzles) return { [LEVEL_LADDER]: revealedOf(level.number) };
  const stops: Record<string, number> = {};
  for (const puzzle of level.puzzles) {
    const revealed = revealedOf(level.number, puzzle.id);
    if (puzzle.id === open || (state === 'solved' && revealed > 0)) stops[puzzle.id] = revealed;
  }
  return stops;
}

function SolutionTitle() {
  const t = useT();
  return (
    <h2 className="flex items-center gap-2">
      <Icon name="list" className="size-5 text-primary-600 dark:text-primary-400" />
      {t('level.solution')}
    </h2>
  );
}

/** Once the steps are on the page, the one the URL names (`#steps-<puzzle>`, "Still stuck" asked for it) is shown: every <details> around it opened. */
function useOpenStepsTarget(shown: boolean) {
  useEffect(() => {
    const target = shown && location.hash.startsWith('#steps-') ? document.getElementById(location.hash.slice(1)) : null;
    if (!target) return;
    for (let at: HTMLDetailsElement | null | undefined = target.closest('details'); at; at = at.parentElement?.closest('details')) at.open = true;
    target.scrollIntoView({ block: 'center' });
  }, [shown]);
}

/** A guide's main puzzles and extras, the main escape's steps, and each puzzle's own steps. */
function guideParts(level: LevelDetail) {
  const main = level.puzzles?.filter((puzzle) => !puzzle.extra);
  const extras = level.puzzles?.filter((puzzle) => puzzle.extra) ?? [];
  const mainSteps = main ? level.steps.slice(0, main.reduce((n, puzzle) => n + puzzle.stepCount, 0)) : level.steps;
  const stepsOf = new Map((level.puzzles ?? []).map((puzzle) => [puzzle.id, level.steps.slice(puzzle.firstStep, puzzle.firstStep + puzzle.stepCount)]));
  return { main, extras, mainSteps, stepsOf };
}

/** A level's guide (a number with no guide is the levelMissing page, level-missing.page.tsx). */
export default function LevelPage() {
  const { level, prev, next, stepsOnRequest } = useLoaderData<typeof loader>();
  const { gameName, siteUrl } = useSiteConfig();
  const { t, tag } = useI18n();
  const { hintsReveal } = useParseTimeScripts();
  const [videoStart, setVideoStart] = useState<number | null>(null);
  const url = `${siteUrl}/levels/${level.number}`;
  const values = { level: level.number, title: level.title, game: gameName };
  // A sample guide's video is a placeholder: no player, no moment links; the text guide stands alone.
  const video = playableVideo(level.video);

  // The folded parts' props stay the same objects from render to render (memo in folded-parts.tsx):
  // opening a puzzle re-renders this page, and a part whose chunk has not arrived yet must not see new props.
  const watchStep = useCallback((seconds: number) => {
    setVideoStart(seconds);
    document.getElementById('walkthrough')?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  }, []);
  // Which puzzle is open, read from the <details> themselves: they open and close before their code arrives.
  const openPuzzle = useSyncExternalStore(onToggle, openPuzzleId, () => null);
  const { main, extras, mainSteps, stepsOf } = useMemo(() => guideParts(level), [level]);
  const inView = level.puzzles?.find((puzzle) => puzzle.id === openPuzzle);
  const ladder: LadderInView | null = !level.puzzles
    ? { hintCount: level.hintsHtml.length, stepsId: STEPS_ID, videoFrom: video ? (firstMoment(level.steps) ?? 0) : undefined }
    : inView
      ? {
          puzzle: inView.id,
          hintCount: inView.hintsHtml.length,
          stepsId: stepsId(inView.id),
          videoFrom: video ? firstMoment(stepsOf.get(inView.id)!) : undefined,
        }
      : null;
  const stepProps = useMemo(() => ({ href: url, video: !!video, onWatch: watchStep }), [url, video, watchStep]);
  // A guide in puzzles shows its steps at ?steps=1: a link there (the router fetches its payload), then the steps open.
  const stepsHref = stepsOnRequest ? `/levels/${level.number}?${STEPS_QUERY}=1` : undefined;
  useOpenStepsTarget(!stepsOnRequest);

  return (
    <main className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <Seo
        title={t('level.seoTitle', values)}
        description={t('level.seoDescription', values)}
        image={`/og/levels/${level.number}.png`}
      />
      <JsonLd data={levelJsonLd?.(level, url, siteUrl, values, t, !stepsOnRequest)} />
      <Breadcrumbs items={levelCrumbs(level.number, t)} />

      <header className="mt-6">
        <p className="text-sm font-semibold tracking-wide text-primary-700 uppercase dark:text-primary-400">{t('level.kicker', { game: gameName })}</p>
        <h1 className="mt-1 text-3xl font-extrabold tracking-tight sm:text-4xl">
          {t('level.heading', values)}
        </h1>
        <div className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-2">
          <DifficultyBadge difficulty={level.difficulty} />
          <span className="inline-flex items-center gap-1 text-sm text-gray-600 dark:text-gray-400">
            {t('level.referenceTime')} <ReferenceTime seconds={level.referenceSeconds} />
          </span>
          {level.unlocksAt !== undefined && level.unlocksAt > 0 && (
            <span className="inline-flex items-center gap-1 text-sm text-gray-600 dark:text-gray-400">
              <Icon name="lock" className="size-4" /> {withNodes(t('level.unlocksAfter'), { level: level.unlocksAt })}
            </span>
          )}
          {video && (
            // Straight to the video at the bottom of a long page; the router scrolls to the hash target.
            <Link
              to={`/levels/${level.number}#walkthrough`}
              className="inline-flex items-center gap-1 text-sm font-medium text-primary-700 hover:underline dark:text-primary-400"
            >
              <Icon name="play" className="size-3" /> {t('level.jumpToVideo')}
            </Link>
          )}
        </div>
        {level.introHtml && (
          <div className="mt-4 text-lg leading-8 text-gray-700 dark:text-gray-300" dangerouslySetInnerHTML={{ __html: level.introHtml }} />
        )}
      </header>

      {level.tipsHtml.length > 0 && (
        <section aria-labelledby="tips-title" className="mt-8">
          <h2 id="tips-title" className="text-lg font-bold">
            {t('level.tips')}
          </h2>
          <ul className="mt-3 space-y-2">
            {level.tipsHtml.map((html, i) => (
              <li key={i} className="flex gap-2 leading-7 text-gray-700 dark:text-gray-300">
                <Icon name="check" className="mt-1.5 size-4 shrink-0 text-primary-600 dark:text-primary-400" />
                <span dangerouslySetInnerHTML={{ __html: html }} />
              </li>
            ))}
          </ul>
        </section>
      )}

      <div className="mt-8">
        {main ? (
          <FoldedPicker level={level.number} puzzles={main} script={hintsReveal} scriptLater={extras.length > 0} />
        ) : (
          <FoldedLadder level={level.number} hintsHtml={level.hintsHtml} script={hintsReveal} />
        )}
      </div>

      <div className="mt-8">
        <ProgressMarks
          level={level.number}
          ladder={ladder}
          next={next?.number}
          onWatch={watchStep}
          onChoose={() => document.getElementById(PUZZLES_ID)?.scrollIntoView({ behavior: 'smooth', block: 'start' })}
          stops={(state) => stopsAt(level, openPuzzle, state)}
          stepsHref={stepsHref}
        />
      </div>

      {stepsHref ? (
        <Link id={STEPS_ID} to={`${stepsHref}#${STEPS_ID}`} replace className="mt-8 flex items-center justify-between gap-4 rounded-2xl border border-gray-200 p-5 text-lg font-bold sm:p-6 dark:border-gray-800">
          <SolutionTitle />
          <span className="flex items-center gap-1 text-sm font-medium text-gray-500 dark:text-gray-400">
            {t('level.showSteps', { count: mainSteps.length })}
            <Icon name="chevronDown" className="size-4" />
          </span>
        </Link>
      ) : (
        <details id={STEPS_ID} open={!!main} className="group mt-8 rounded-2xl border border-gray-200 dark:border-gray-800">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 p-5 text-lg font-bold sm:p-6 [&::-webkit-details-marker]:hidden">
            <SolutionTitle />
            <span className="flex items-center gap-1 text-sm font-medium text-gray-500 dark:text-gray-400">
              <span className="group-open:hidden">{t('level.showSteps', { count: mainSteps.length })}</span>
              <span className="hidden group-open:inline">{t('level.hideSteps')}</span>
              <Icon name="chevronDown" className="size-4 transition group-open:rotate-180" />
            </span>
          </summary>
          <div className="space-y-6 border-t border-gray-200 p-5 sm:p-6 dark:border-gray-800">
            {main ? (
              main.map((puzzle) => (
                <div key={puzzle.id}>
                  <h3 id={stepsId(puzzle.id)} className="mb-3 scroll-mt-20 font-semibold text-gray-700 dark:text-gray-300">
                    {puzzle.question}
                  </h3>
                  <FoldedSteps steps={stepsOf.get(puzzle.id)!} from={puzzle.firstStep + 1} {...stepProps} />
                </div>
              ))
            ) : (
              <FoldedSteps steps={level.steps} from={1} {...stepProps} />
            )}
          </div>
        </details>
      )}

      {extras.length > 0 && (
        <FoldedExtras level={level.number} puzzles={extras} script={hintsReveal} steps={level.steps} stepsHref={stepsHref} {...stepProps} />
      )}

      {level.video && (
        <section id="walkthrough" aria-labelledby="video-title" className="mt-8 scroll-mt-20">
          <h2 id="video-title" className="mb-3 text-lg font-bold">
            {t('level.video')}
          </h2>
          {video ? (
            <VideoFacade video={video} start={videoStart} onStart={setVideoStart} />
          ) : (
            <p className="rounded-2xl bg-gray-50 p-5 dark:bg-gray-900">{t('level.videoComing')}</p>
          )}
        </section>
      )}

      <div className="mt-8">
        <GuideFeedback level={level.number} />
        <Link to={`/levels/${level.number}/report`} className="mt-3 inline-block text-sm font-medium text-gray-600 underline decoration-gray-300 underline-offset-4 hover:text-primary-700 dark:text-gray-400 dark:decoration-gray-600 dark:hover:text-primary-400">
          {t('feedback.reportProblem')}
        </Link>
      </div>
      <p className="mt-6 text-sm text-gray-500 dark:text-gray-400">
        {t('level.checked', { version: level.gameVersion, date: dateFormat(tag, 'day').format(new Date(`${level.verifiedOn}T00:00:00Z`)) })}
        {level.helpful && ` ${t('level.helpful', { ...level.helpful })}`}
      </p>
      <PrevNext prev={prev} next={next} />
    </main>
  );
}
