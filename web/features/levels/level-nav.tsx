import type { LevelSummary } from 'src/contracts/levels';
import { Icon } from 'web/components/icons';
import { useT, type Translate } from 'web/i18n/i18n';
import { Link } from 'web/lib/router/router';

/** Home › Levels › Level N. */
export const levelCrumbs = (number: number, t: Translate) => [
  { label: t('menu.home'), to: '/' },
  { label: t('menu.levels'), to: '/levels' },
  { label: t('level.number', { level: number }) },
];

export function PrevNext({ prev, next }: { prev?: LevelSummary; next?: LevelSummary }) {
  const t = useT();
  if (!prev && !next) return null;
  return (
    <nav aria-label={t('level.otherLevels')} className="mt-6 grid grid-cols-2 gap-3">
      {prev ? (
        <Link to={`/levels/${prev.number}`} rel="prev" className="group rounded-2xl border border-gray-200 p-4 hover:border-primary-400 dark:border-gray-800">
          <span className="flex items-center gap-1 text-sm text-gray-500 dark:text-gray-400">
            <Icon name="chevronLeft" className="size-4" /> {t('level.previous')}
          </span>
          <span className="mt-1 block font-semibold group-hover:text-primary-700 dark:group-hover:text-primary-400">{t('level.number', { level: prev.number })}</span>
        </Link>
      ) : (
        <span />
      )}
      {next ? (
        <Link to={`/levels/${next.number}`} rel="next" className="group rounded-2xl border border-gray-200 p-4 text-right hover:border-primary-400 dark:border-gray-800">
          <span className="flex items-center justify-end gap-1 text-sm text-gray-500 dark:text-gray-400">
            {t('level.next')} <Icon name="chevronRight" className="size-4" />
          </span>
          <span className="mt-1 block font-semibold group-hover:text-primary-700 dark:group-hover:text-primary-400">{t('level.number', { level: next.number })}</span>
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
