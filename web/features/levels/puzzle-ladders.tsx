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
      className="puzzle"
    >
      <summary>
        <span>
          {puzzle.extra && <mark>{t(`extras.${puzzle.extra}`)}</mark>}
          <strong>{puzzle.question}</strong>
          {puzzle.object && <small>{puzzle.object}</small>}
        </span>
      </summary>
      <div>
        <HintList level={level} puzzle={puzzle.id} hintsHtml={puzzle.hintsHtml} />
        {children}
      </div>
    </details>
  );
}

export interface PuzzlesProps {
  level: number;
  puzzles: GuidePuzzle[];
  /** HINTS_REVEAL_SCRIPT (empty in the browser: hydration keeps the server's text). */
  script: string;
  /** A later part of the page runs the script, once for all ladders (the extras). */
  scriptLater?: boolean;
}

/** "Where are you stuck?": the main escape's questions (and objects); opening one shows only its ladder. */
export function PuzzlePicker({ level, puzzles, script, scriptLater }: PuzzlesProps) {
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
      {!scriptLater && <LadderScript script={script} />}
    </section>
  );
}
