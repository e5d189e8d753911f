import { HIDE_SOLVED_KEY, solvedLevels } from 'src/contracts/progress';
import type { LevelSummary } from 'src/contracts/levels';
import { usePageI18n } from 'web/i18n/page-messages';
import { markOf, useProgress } from 'web/lib/progress';
import { useParseTimeScripts } from 'web/lib/render-context';
import { Link } from 'web/lib/router/router';
import { useStoredState } from 'web/lib/use-stored-state';
import { LevelCard } from './level-card';

/**
 * Levels in a grid, each marked with this browser's progress, and "Hide solved levels" once a level
 * is solved. The HTML is the same for everyone (cached); PROGRESS_LIST_SCRIPT draws the marks while the
 * page is parsed and these attributes match it once hydrated.
 */
export function LevelGrid({ levels }: { levels: LevelSummary[] }) {
  const { t } = usePageI18n();
  const { progressList: script } = useParseTimeScripts();
  const progress = useProgress();
  const [hideStored, setHide] = useStoredState(HIDE_SOLVED_KEY);
  const anySolved = solvedLevels(progress).length > 0;
  const hiding = anySolved && hideStored === '1';
  return (
    <div data-hiding={hiding ? '' : undefined} className="mt-6">
      <div data-hide-solved hidden={!anySolved} className="mb-3 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
        <button
          type="button"
          aria-pressed={hideStored === '1'}
          onClick={() => setHide(hideStored === '1' ? '0' : '1')}
          className="group inline-flex items-center gap-2 rounded-full border border-gray-300 px-3 py-1 font-medium aria-pressed:border-primary-700 aria-pressed:bg-primary-50 dark:border-gray-700 dark:aria-pressed:border-primary-400 dark:aria-pressed:bg-primary-950"
        >
          <span aria-hidden="true" className="size-3 rounded-sm border border-current group-aria-pressed:bg-current" />
          {t('levels.hideSolved')}
        </button>
        <Link to="/progress" className="font-medium text-primary-700 underline underline-offset-2 dark:text-primary-400">
          {t('levels.yourProgress')}
        </Link>
      </div>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        {levels.map((level) => (
          <li key={level.number} data-level-mark={level.number} data-mark={markOf(progress, level.number) || undefined} className="in-data-hiding:data-[mark=solved]:hidden">
            <LevelCard level={level} />
          </li>
        ))}
      </ul>
      <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: script }} />
    </div>
  );
}
