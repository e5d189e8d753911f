import type { LevelSummary } from 'src/contracts/levels';
import { usePageI18n } from 'web/i18n/page-messages';
import { Link } from 'web/lib/router/router';
import { DifficultyBadge, ReferenceTime } from './level-bits';

/**
 * A level in a grid: number, title, difficulty and time, the whole card a link to the guide. Only
 * the list pages show it, so it stays out of the level page's chunks.
 */
export function LevelCard({ level }: { level: LevelSummary }) {
  const { t } = usePageI18n();
  return (
    <Link
      to={`/levels/${level.number}`}
      className="group flex h-full flex-col rounded-2xl border border-gray-200 bg-white p-4 transition hover:-translate-y-0.5 hover:border-primary-400 hover:shadow-md dark:border-gray-800 dark:bg-gray-900 dark:hover:border-primary-600"
    >
      <span className="flex items-center justify-between gap-2">
        <span className="text-sm font-semibold text-gray-500 dark:text-gray-400">{t('levels.card')}</span>
        <DifficultyBadge difficulty={level.difficulty} />
      </span>
      <span className="mt-1 text-3xl font-extrabold tracking-tight text-gray-900 group-hover:text-primary-700 dark:text-white dark:group-hover:text-primary-400">
        {level.number}
      </span>
      <span className="mt-1 line-clamp-2 flex-1 text-sm font-medium text-gray-700 dark:text-gray-300">{level.title}</span>
      {/* The time, and this browser's mark on the same line (a line of its own would push the card's number and title out of line with its row's). */}
      <span className="mt-3 flex min-h-6 flex-wrap items-center justify-between gap-x-2 gap-y-1">
        <ReferenceTime seconds={level.referenceSeconds} />
        {/* Drawn from the list item's data-mark (LevelGrid): shown by CSS, so it is there at the first paint. */}
        <span className="hidden items-center gap-1 rounded-full bg-primary-700 px-2 py-0.5 text-xs font-semibold text-white in-data-[mark=solved]:inline-flex dark:bg-primary-400 dark:text-gray-950">
          ✓ {t('levels.solvedBadge')}
        </span>
        <span className="hidden items-center rounded-full bg-my-color-100 px-2 py-0.5 text-xs font-semibold text-my-color-900 in-data-[mark=stuck]:inline-flex dark:bg-my-color-900 dark:text-my-color-100">
          {t('levels.stuckBadge')}
        </span>
      </span>
    </Link>
  );
}
