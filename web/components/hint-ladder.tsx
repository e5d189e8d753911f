import { useT } from 'web/i18n/i18n';
import { hintsRevealedKey } from 'src/contracts/inline-scripts';
import { useParseTimeScripts } from 'web/lib/render-context';
import { useStoredState } from 'web/lib/use-stored-state';
import { Icon } from './icons';

/**
 * Hints from least to most revealing, shown one at a time on request. How many this browser has
 * revealed is remembered per level, so a reload does not hide them again.
 */
export function HintLadder({ level, hintsHtml }: { level: number; hintsHtml: string[] }) {
  const [stored, setStored] = useStoredState(hintsRevealedKey(level));
  const revealed = Math.min(hintsHtml.length, Math.max(0, Number(stored) || 0));
  const total = hintsHtml.length;
  const t = useT();
  const { hintsReveal } = useParseTimeScripts();

  return (
    <section aria-labelledby="hints-title" className="rounded-2xl border border-gray-200 p-5 sm:p-6 dark:border-gray-800">
      <div className="flex items-center justify-between gap-4">
        <h2 id="hints-title" className="flex items-center gap-2 text-lg font-bold">
          <Icon name="lightbulb" className="size-5 text-my-color-500" />
          {t('hints.title')}
        </h2>
        <p className="text-sm text-gray-500 dark:text-gray-400" aria-live="polite">
          {t('hints.revealed', { revealed, total })}
        </p>
      </div>
      <ol data-level={level} className="mt-4 flex flex-col gap-3">
        {hintsHtml.map((html, i) => (
          <li key={i} data-hint hidden={i >= revealed} className="flex gap-3 rounded-xl bg-my-color-50 p-4 dark:bg-my-color-950/40">
            <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-my-color-500 text-xs font-bold text-white dark:text-gray-950">
              {i + 1}
            </span>
            <span className="leading-7 [&_strong]:font-semibold" dangerouslySetInnerHTML={{ __html: html }} />
          </li>
        ))}
      </ol>
      {/* Shows the remembered hints while the page is parsed, before its first paint: no jump at hydration. */}
      <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: hintsReveal }} />
      <noscript>
        <ol className="mt-4 space-y-2">
          {hintsHtml.map((html, i) => (
            <li key={i}>
              <details className="rounded-xl bg-my-color-50 p-3 dark:bg-my-color-950/40">
                <summary className="cursor-pointer font-semibold">{t('hints.hint', { number: i + 1 })}</summary>
                <span dangerouslySetInnerHTML={{ __html: html }} />
              </details>
            </li>
          ))}
        </ol>
      </noscript>
      {revealed < total ? (
        <button
          type="button"
          onClick={() => setStored(String(revealed + 1))}
          className="mt-4 inline-flex items-center gap-2 rounded-full border border-my-color-300 bg-white px-4 py-2 text-sm font-semibold text-my-color-800 transition hover:bg-my-color-50 dark:border-my-color-700 dark:bg-gray-900 dark:text-my-color-300 dark:hover:bg-my-color-950"
        >
          <Icon name="eye" className="size-4" />
          {revealed === 0 ? t('hints.showFirst') : t('hints.showNext', { number: revealed + 1, total })}
        </button>
      ) : (
        <p className="mt-4 text-sm text-gray-600 dark:text-gray-400">{t('hints.last')}</p>
      )}
    </section>
  );
}
