import type { GuideStep } from 'src/contracts/levels';
import { LadderScript } from 'web/components/hint-ladder';
import { Icon } from 'web/components/icons';
import { useT } from 'web/i18n/i18n';
import { Link } from 'web/lib/router/router';
import { GuideSteps } from 'web/features/levels/guide-steps';
import { stepsId } from 'web/features/levels/puzzle-ids';
import { PuzzleLadder, type PuzzlesProps } from 'web/features/levels/puzzle-ladders';

interface ExtrasProps extends PuzzlesProps {
  steps: GuideStep[];
  /** The page with the steps (`?steps=1`) while they are not on this one: "Show the steps" links there. */
  stepsHref?: string;
  href: string;
  video: boolean;
  onWatch: (seconds: number) => void;
}

/** Extras apart from the main escape (a bonus, a collectible, a quiz), after it and folded: the escape stays spoiler-free. */
export function GuideExtras({ level, puzzles, script, steps, stepsHref, href, video, onWatch }: ExtrasProps) {
  const t = useT();
  return (
    <section aria-labelledby="extras-title" className="mt-8">
      <h2 id="extras-title" className="flex items-center gap-2 text-lg font-bold">
        <Icon name="star" className="size-5 text-my-color-500" />
        {t('extras.title')}
      </h2>
      <p className="mt-1 text-sm text-gray-600 dark:text-gray-400">{t('extras.intro')}</p>
      <ul className="mt-4 space-y-3">
        {puzzles.map((puzzle) => (
          <li key={puzzle.id}>
            <PuzzleLadder level={level} puzzle={puzzle}>
              {stepsHref ? (
                <Link id={stepsId(puzzle.id)} to={`${stepsHref}#${stepsId(puzzle.id)}`} replace className="mt-4 inline-block text-sm font-semibold text-primary-700 dark:text-primary-400">
                  {t('extras.showSteps')}
                </Link>
              ) : (
                <details className="mt-4">
                  <summary id={stepsId(puzzle.id)} className="cursor-pointer text-sm font-semibold text-primary-700 dark:text-primary-400">
                    {t('extras.showSteps')}
                  </summary>
                  <div className="mt-3">
                    <GuideSteps steps={steps.slice(puzzle.firstStep, puzzle.firstStep + puzzle.stepCount)} from={1} href={href} video={video} onWatch={onWatch} />
                  </div>
                </details>
              )}
            </PuzzleLadder>
          </li>
        ))}
      </ul>
      <LadderScript script={script} />
    </section>
  );
}
