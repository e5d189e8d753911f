import { DIFFICULTY_LABELS, formatDuration, type Difficulty, type LevelSummary } from 'src/contracts/levels';
import { Link } from 'web/lib/router/router';
import { Icon } from './icons';

const DIFFICULTY_STYLES: Record<Difficulty, string> = {
  easy: 'bg-primary-50 text-primary-800 ring-primary-600/20 dark:bg-primary-950 dark:text-primary-300 dark:ring-primary-400/30',
  medium: 'bg-my-color-50 text-my-color-800 ring-my-color-600/20 dark:bg-my-color-950 dark:text-my-color-300 dark:ring-my-color-400/30',
  hard: 'bg-red-50 text-red-800 ring-red-600/20 dark:bg-red-950 dark:text-red-300 dark:ring-red-400/30',
};

export function DifficultyBadge({ difficulty }: { difficulty: Difficulty }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${DIFFICULTY_STYLES[difficulty]}`}>
      {DIFFICULTY_LABELS[difficulty]}
    </span>
  );
}

export function ReferenceTime({ seconds }: { seconds: number }) {
  return (
    <span className="inline-flex items-center gap-1 text-sm text-gray-600 dark:text-gray-400">
      <Icon name="clock" className="size-4" />
      <span className="sr-only">Reference time</span>
      {formatDuration(seconds)}
    </span>
  );
}

/** A level in a grid: number, title, difficulty and time, the whole card a link to the guide. */
export function LevelCard({ level }: { level: LevelSummary }) {
  return (
    <Link
      to={`/levels/${level.number}`}
      className="group flex h-full flex-col rounded-2xl border border-gray-200 bg-white p-4 transition hover:-translate-y-0.5 hover:border-primary-400 hover:shadow-md dark:border-gray-800 dark:bg-gray-900 dark:hover:border-primary-600"
    >
      <span className="flex items-center justify-between gap-2">
        <span className="text-sm font-semibold text-gray-500 dark:text-gray-400">Level</span>
        <DifficultyBadge difficulty={level.difficulty} />
      </span>
      <span className="mt-1 text-3xl font-extrabold tracking-tight text-gray-900 group-hover:text-primary-700 dark:text-white dark:group-hover:text-primary-400">
        {level.number}
      </span>
      <span className="mt-1 line-clamp-2 flex-1 text-sm font-medium text-gray-700 dark:text-gray-300">{level.title}</span>
      <span className="mt-3">
        <ReferenceTime seconds={level.referenceSeconds} />
      </span>
    </Link>
  );
}

export interface Crumb {
  label: string;
  to?: string;
}

export function Breadcrumbs({ items }: { items: Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm text-gray-500 dark:text-gray-400">
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
export function JsonLd({ data }: { data: unknown }) {
  return (
    <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replace(/</g, '\\u003c') }} />
  );
}
