import { formatDuration, type GuideStep } from 'src/contracts/levels';
import { Icon } from 'web/components/icons';
import { useT } from 'web/i18n/i18n';
import { StepPicture } from 'web/features/levels/step-picture';

interface Props {
  steps: GuideStep[];
  /** The number of the first step: steps count on across the puzzles. */
  from: number;
  href: string;
  /** Whether the guide has a real video (moment links). */
  video: boolean;
  onWatch: (seconds: number) => void;
}

/** Numbered steps, each with its picture and video moment when it has them. */
export function GuideSteps({ steps, from, href, video, onWatch }: Props) {
  const t = useT();
  return (
    <ol className="space-y-4">
      {steps.map((step, i) => {
        const at = video ? step.atSeconds : undefined;
        return (
          <li key={i} className="flex gap-3">
            <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary-700 text-sm font-bold text-white dark:bg-primary-500 dark:text-gray-950">
              {from + i}
            </span>
            <div className="min-w-0 flex-1">
              <p className="leading-7 [&_strong]:font-semibold" dangerouslySetInnerHTML={{ __html: step.html }} />
              {step.picture && <StepPicture picture={step.picture} href={href} at={at} onWatch={onWatch} />}
              {at !== undefined && (
                <button
                  type="button"
                  onClick={() => onWatch(at)}
                  className="mt-1 inline-flex items-center gap-1 text-sm font-medium text-primary-700 hover:underline dark:text-primary-400"
                >
                  <Icon name="play" className="size-3" /> {t('level.watchAt', { time: formatDuration(at) })}
                </button>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
