import { useState } from 'react';
import { formatDuration } from 'src/contracts/levels';
import { useT } from 'web/i18n/i18n';
import { markOf, setMark, useProgress } from 'web/lib/progress';
import { useParseTimeScripts } from 'web/lib/render-context';
import { Link, useNavigate } from 'web/lib/router/router';
import { useRevealed } from './use-revealed';

/** The hint ladder "Still stuck" helps with: the guide's one ladder, or the puzzle open on the page. */
export interface LadderInView {
  /** The puzzle's id; none for a guide's one ladder. */
  puzzle?: string;
  hintCount: number;
  /** id of the heading its steps start at, in the folded solution. */
  stepsId: string;
  /** Where the walkthrough shows its first step, when the guide has a real video. */
  videoFrom?: number;
}

interface Props {
  level: number;
  /** null: the guide has puzzles and none is open, so "Still stuck" asks where. */
  ladder: LadderInView | null;
  /** The next guide, for "On to level N". */
  next?: number;
  onWatch: (seconds: number) => void;
  /** Scrolls to "Where are you stuck?". */
  onChoose: () => void;
  /** How many hints of each ladder this browser revealed, sent with a tap (where players stop). */
  stops: (state: 'solved' | 'stuck') => Record<string, number>;
  /** The page with the steps (`?steps=1`) while they are not on this one: "Open the steps" goes there. */
  stepsHref?: string;
}

/**
 * "Solved it" / "Still stuck" on a guide: one tap, tapped again to take it back. Kept in this
 * browser (and the account, when signed in); the server only counts the tap, with how many hints
 * of each ladder were revealed (where players stop). "Still stuck" points to the next rung of the
 * ladder in view (the guide's one ladder, or the open puzzle's; with puzzles and none open, to
 * "Where are you stuck?"): the next hint, then its steps, then the video moment, then a report. Rendered with every state hidden; PROGRESS_SCRIPT draws the stored one before
 * the first paint, and these attributes match it once hydrated.
 */
export function ProgressMarks({ level, ladder, next, onWatch, onChoose, stops, stepsHref }: Props) {
  const t = useT();
  const { progress: script } = useParseTimeScripts();
  const mark = markOf(useProgress(), level);
  const navigate = useNavigate();
  const [revealed, reveal] = useRevealed(level, ladder?.puzzle, ladder?.hintCount ?? 0);
  // Per ladder: opening the steps of one puzzle is no help with another.
  const [stepsOpened, setStepsOpened] = useState<string | null>(null);
  const videoFrom = ladder?.videoFrom;
  const rung = !ladder ? 'choose' : revealed < ladder.hintCount ? 'hint' : stepsOpened !== ladder.stepsId ? 'steps' : videoFrom !== undefined ? 'video' : 'report';

  const show = (id: string) => document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  const nextHint = () => {
    reveal();
    show(ladder?.puzzle ? `puzzle-${ladder.puzzle}` : 'hints-title'); // puzzleId(): web/features/levels/puzzle-ids.ts
  };
  const openSteps = () => {
    if (!ladder) return;
    setStepsOpened(ladder.stepsId);
    // Not on the page yet: the page with them opens there (web/features/levels/level.page.tsx shows the target).
    if (stepsHref) return void navigate(`${stepsHref}#${ladder.stepsId}`, { replace: true });
    // The steps sit in folded <details> (the solution; an extra's own): open every one around them.
    for (let at = document.getElementById(ladder.stepsId)?.closest('details'); at; at = at.parentElement?.closest('details')) at.open = true;
    show(ladder.stepsId);
  };
  const choice = (value: 'solved' | 'stuck', label: string) => (
    <button
      type="button"
      data-set-mark={value}
      aria-pressed={mark === value}
      onClick={() => (mark === value ? setMark(level, 'none') : setMark(level, value, stops(value)))}
      className="mark-button"
    >
      {label}
    </button>
  );
  const rungClass = 'font-semibold text-primary-700 hover:underline dark:text-primary-400';

  return (
    <section data-progress={level} aria-labelledby="progress-title" className="rounded-2xl border border-gray-200 p-5 sm:p-6 dark:border-gray-800">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="progress-title" className="text-lg font-bold">
          {t('progress.title')}
        </h2>
        <Link to="/progress" className="text-sm font-medium text-gray-600 underline decoration-gray-300 underline-offset-4 hover:text-primary-700 dark:text-gray-400 dark:decoration-gray-600">
          {t('progress.yours')}
        </Link>
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        {choice('solved', `✓ ${t('progress.solved')}`)}
        {choice('stuck', t('progress.stuck'))}
      </div>
      <p data-when="solved" hidden={mark !== 'solved'} className="mt-3 text-sm">
        {t('progress.solvedNote')}{' '}
        {next !== undefined && (
          <Link to={`/levels/${next}`} className={rungClass}>
            {t('progress.onTo', { level: next })} →
          </Link>
        )}
      </p>
      <p data-when="stuck" hidden={mark !== 'stuck'} className="mt-3 flex flex-wrap gap-x-3 text-sm">
        {t('progress.tryNext')}
        <button type="button" data-rung="choose" hidden={rung !== 'choose'} onClick={onChoose} className={rungClass}>
          {t('puzzles.choose')}
        </button>
        <button type="button" data-rung="hint" hidden={rung !== 'hint'} onClick={nextHint} className={rungClass}>
          {t('progress.nextHint')}
        </button>
        <button type="button" data-rung="steps" hidden={rung !== 'steps'} onClick={openSteps} className={rungClass}>
          {t('progress.openSteps')}
        </button>
        {videoFrom !== undefined && (
          <button type="button" data-rung="video" hidden={rung !== 'video'} onClick={() => onWatch(videoFrom)} className={rungClass}>
            {t('progress.watchFrom', { time: formatDuration(videoFrom) })}
          </button>
        )}
        <Link to={`/levels/${level}/report`} data-rung="report" hidden={rung !== 'report'} className={rungClass}>
          {t('progress.report')}
        </Link>
      </p>
      <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: script }} />
    </section>
  );
}
