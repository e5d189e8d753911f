import type { ReactNode } from 'react';
import type { GuidePuzzle } from 'src/contracts/levels';
import { HintList, LadderScript } from 'web/components/hint-ladder';
import { Icon } from 'web/components/icons';
import { useT } from 'web/i18n/i18n';

import { puzzleId, PUZZLES_ID } from 'web/features/levels/puzzle-ids';

interface LadderProps {
  level: number;
  puzzle: GuidePuzzle;
  /** Main puzzles share a name: opening one closes the others (exclusive <details>, no script needed). */
  group?: string;
  children?: ReactNode;
}

/** A puzzle: its question (and object) to open, its ladder inside; the page follows which is open by its `toggle` events (data-puzzle). */
export function PuzzleLadder({ level, puzzle, group, children }: LadderProps) {
  const t = useT();
  return (
    <details
      id={puzzleId(puzzle.id)}
      name={group}
      data-puzzle={puzzle.id}
      className="group/puzzle scroll-mt-20 rounded-xl border border-gray-200 open:border-my-color-300 dark:border-gray-800 dark:open:border-my-color-800"
    >
      <summary className="flex cursor-pointer list-none items-start gap-3 p-4 [&::-webkit-details-marker]:hidden">
        <Icon name="chevronDown" className="mt-1 size-4 shrink-0 text-gray-500 transition group-open/puzzle:rotate-180 dark:text-gray-400" />
        <span className="min-w-0">
          {puzzle.extra && (
            <span className="mr-2 rounded-full bg-my-color-100 px-2 py-0.5 text-xs font-semibold text-my-color-900 dark:bg-my-color-950 dark:text-my-color-200">{t(`extras.${puzzle.extra}`)}</span>
          )}
          <span className="font-semibold">{puzzle.question}</span>
          {puzzle.object && <span className="block text-sm text-gray-600 dark:text-gray-400">{puzzle.object}</span>}
        </span>
      </summary>
      <div className="border-t border-gray-200 p-4 dark:border-gray-800">
        <HintList level={level} puzzle={puzzle.id} hintsHtml={puzzle.hintsHtml} />
        {children}
      </div>
    </details>
  );
}

export interface PuzzlesProps {
  level: number;
  puzzles: GuidePuzzle[];
  script: string;
}

/** "Where are you stuck?": the main escape's questions (and objects); opening one shows only its ladder. */
export function PuzzlePicker({ level, puzzles, script }: PuzzlesProps) {
  const t = useT();
  return (
    <section id={PUZZLES_ID} aria-labelledby="puzzles-title" className="scroll-mt-20 rounded-2xl border border-gray-200 p-5 sm:p-6 dark:border-gray-800">
      <h2 id="puzzles-title" className="flex items-center gap-2 text-lg font-bold">
        <Icon name="lightbulb" className="size-5 text-my-color-500" />
        {t('puzzles.title')}
      </h2>
      <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{t('puzzles.intro')}</p>
      <ul className="mt-4 space-y-3">
        {puzzles.map((puzzle) => (
          <li key={puzzle.id}>
            <PuzzleLadder level={level} puzzle={puzzle} group={`puzzles-${level}`} />
          </li>
        ))}
      </ul>
      <LadderScript script={script} />
    </section>
  );
}
