import { formatDuration, type Difficulty } from 'src/contracts/levels';
import { useT, type MessageKey, type Translate } from 'web/i18n/i18n';
import { Link } from 'web/lib/router/router';
import { Icon } from './icons';

const DIFFICULTY_LABELS: Record<Difficulty, MessageKey> = { easy: 'difficulty.easy', medium: 'difficulty.medium', hard: 'difficulty.hard' };

/** 'Easy', 'Medium' or 'Hard' in the current language. */
export const difficultyLabel = (difficulty: Difficulty, t: Translate) => t(DIFFICULTY_LABELS[difficulty]);

export function DifficultyBadge({ difficulty }: { difficulty: Difficulty }) {
  const t = useT();
  return (
    // The badge's classes are in web/styles/app.css (`badge`, `badge-<difficulty>`): on every guide and list card.
    <span className={`badge badge-${difficulty}`}>
      {difficultyLabel(difficulty, t)}
    </span>
  );
}

export function ReferenceTime({ seconds }: { seconds: number }) {
  const t = useT();
  return (
    <span className="inline-flex items-center gap-1 text-sm text-gray-600 dark:text-gray-400">
      <Icon name="clock" className="size-4" />
      <span className="sr-only">{t('level.referenceTime')}</span>
      {formatDuration(seconds)}
    </span>
  );
}

export interface Crumb {
  label: string;
  to?: string;
}

export function Breadcrumbs({ items }: { items: Crumb[] }) {
  const t = useT();
  return (
    <nav aria-label={t('breadcrumbs.label')} className="text-sm text-gray-500 dark:text-gray-400">
      <ol className="flex flex-wrap items-center gap-1.5">
        {items.map((item, i) => (
          <li key={item.label} className="flex items-center gap-1.5">
            {i > 0 && <Icon name="chevronRight" className="size-3.5" />}
            {item.to ? (
              <Link to={item.to} className="hover:text-primary-700 dark:hover:text-primary-400">
                {item.label}
              </Link>
            ) : (
              <span aria-current="page" className="font-medium text-gray-700 dark:text-gray-200">
                {item.label}
              </span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** Structured data for search engines; `<` is escaped so the JSON cannot close the script. */
/**
 * Structured data. `data` undefined: built by a server-only module (*.server.ts), so the browser
 * renders nothing new and hydration keeps the server's text.
 */
export function JsonLd({ data }: { data: unknown }) {
  return (
    <script
      type="application/ld+json"
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: data === undefined ? '' : JSON.stringify(data).replace(/</g, '\\u003c') }}
    />
  );
}
