import { useT } from 'web/i18n/i18n';
import { Icon } from './icons';
import { useRevealed } from './use-revealed';

/**
 * Hints from least to most revealing, shown one at a time on request. How many this browser has
 * revealed is remembered per ladder (per puzzle when the guide has them), so a reload does not hide
 * them again. The page runs HINTS_REVEAL_SCRIPT once after its ladders (LadderScript), so remembered
 * hints show at the first paint; without JavaScript each hint is a <details> of its own.
 */
export function HintList({ level, puzzle, hintsHtml }: { level: number; puzzle?: string; hintsHtml: string[] }) {
  const total = hintsHtml.length;
  const [revealed, reveal] = useRevealed(level, puzzle, total);
  const t = useT();
  return (
    <>
      <p className="hints-count" aria-live="polite">
        {t('hints.revealed', { revealed, total })}
      </p>
      <ol data-level={level} data-puzzle={puzzle} className="hints">
        {hintsHtml.map((html, i) => (
          <li key={i} data-hint hidden={i >= revealed} className="hint">
            <span>{i + 1}</span>
            <span dangerouslySetInnerHTML={{ __html: html }} />
          </li>
        ))}
      </ol>
      <noscript>
        <ol className="hint-noscript">
          {hintsHtml.map((html, i) => (
            <li key={i}>
              <details>
                <summary>{t('hints.hint', { number: i + 1 })}</summary>
                <span dangerouslySetInnerHTML={{ __html: html }} />
              </details>
            </li>
          ))}
        </ol>
      </noscript>
      {revealed < total ? (
        <button type="button" onClick={reveal} className="hint-button">
          {revealed === 0 ? t('hints.showFirst') : t('hints.showNext', { number: revealed + 1, total })}
        </button>
      ) : (
        <p className="mt-4 text-sm text-gray-600 dark:text-gray-400">{t('hints.last')}</p>
      )}
    </>
  );
}

/** Shows the remembered hints of every ladder above it while the page is parsed, before its first paint: no jump at hydration. */
export function LadderScript({ script }: { script: string }) {
  return <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: script }} />;
}

/** A guide's one ladder (a guide without puzzles). */
export function HintLadder({ level, hintsHtml, script }: { level: number; hintsHtml: string[]; script: string }) {
  const t = useT();
  return (
    <section aria-labelledby="hints-title" className="rounded-2xl border border-gray-200 p-5 sm:p-6 dark:border-gray-800">
      <h2 id="hints-title" className="mb-1 flex items-center gap-2 text-lg font-bold">
        <Icon name="lightbulb" className="size-5 text-my-color-500" />
        {t('hints.title')}
      </h2>
      <HintList level={level} hintsHtml={hintsHtml} />
      <LadderScript script={script} />
    </section>
  );
}
