import { useEffect, useId, useRef } from 'react';
import { IMAGE_MAX_RESULT_SIDE, type ImageEstimate, type ImageSizePlan } from 'src/contracts/images';
import { mutedClass, secondaryButtonClass } from 'web/components/account-ui';
import { Icon } from 'web/components/icons';
import { useAccountI18n } from 'web/i18n/account-messages';
import { expectedTimeWords, keptNotes, type ImageTraits } from 'web/lib/image-tool';
import { dimensions, Glyph, say } from 'web/features/image-tool/image-tool-common';

/**
 * What the conversion will give and take, before the credit is spent: the exact result size, whether
 * the image is shrunk first, the expected time behind the queue, a warning (with the same-size
 * clean-up offered) when an enlargement would not enlarge, and what is kept of the image.
 */
export function PlanSummary({
  size,
  plan,
  ai,
  estimate,
  traits,
  resultFormat,
  onCleanup,
}: {
  /** The chosen image's size (null: not known, as for a URL). */
  size: { width: number; height: number } | null;
  plan: ImageSizePlan | null;
  ai: boolean;
  estimate: { estimate: ImageEstimate | null; loading: boolean };
  traits: ImageTraits | null;
  resultFormat: 'png' | 'webp' | 'jpeg' | null;
  onCleanup: () => void;
}) {
  const { t } = useAccountI18n();
  const id = useId();
  const panel = useRef<HTMLElement>(null);
  // A newly read image: its plan in view, whole if it is not (on a phone: from its top, under the
  // sticky header, down to the sticky Convert card, whose height is the page's scroll padding: see Checkout).
  const shown = size ? `${size.width}x${size.height}` : null;
  useEffect(() => {
    const element = panel.current;
    if (!shown || !element) return;
    const box = element.getBoundingClientRect();
    const bottom = window.innerHeight - (parseFloat(getComputedStyle(document.documentElement).scrollPaddingBottom) || 0);
    if (box.top < 0 || box.bottom > bottom) element.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [shown]);

  const time = expectedTimeWords(estimate.estimate?.seconds);
  const ahead = estimate.estimate?.queue.ahead ?? 0;
  return (
    <section ref={panel} aria-labelledby={`${id}-title`} className="scroll-mt-20 rounded-2xl bg-gray-50 p-4 sm:p-5 dark:bg-gray-900" data-testid="image-plan">
      <h2 id={`${id}-title`} className="text-sm font-semibold">
        {t('image.planTitle')}
      </h2>
      {size && plan ? (
        <dl className="mt-3 grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[auto_minmax(0,1fr)]">
          <dt className={mutedClass}>{t('image.planSize')}</dt>
          <dd>
            <span className="font-semibold tabular-nums" data-testid="image-plan-size">
              {t('image.planSizes', { from: dimensions(size), to: dimensions(plan.result) })}
            </span>
            {plan.input.shrunk ? (
              <span className="mt-1 block text-amber-800 dark:text-amber-300" data-testid="image-will-shrink">
                {t('image.planShrunk', { width: plan.input.width, height: plan.input.height })}
              </span>
            ) : (
              ai && <span className={`mt-1 block ${mutedClass}`}>{t('image.planFull')}</span>
            )}
          </dd>
          <dt className={mutedClass}>{t('image.planTime')}</dt>
          <dd aria-live="polite" aria-busy={estimate.loading} data-testid="image-plan-time">
            {estimate.loading ? (
              <span className={mutedClass}>{t('image.planTimeLoading')}</span>
            ) : time ? (
              <>
                <span className="font-semibold tabular-nums">{say(t, time)}</span>
                {ahead > 0 && <span className={mutedClass}>, {t(ahead === 1 ? 'image.planQueueAheadOne' : 'image.planQueueAhead', { count: ahead })}</span>}
                {estimate.estimate?.basis === 'default' && <span className={`mt-1 block text-xs ${mutedClass}`}>{t('image.planTimeDefault')}</span>}
              </>
            ) : (
              estimate.estimate && <span className={mutedClass}>{t('image.planTimeNone')}</span>
            )}
          </dd>
        </dl>
      ) : (
        <p className={`mt-2 text-sm ${mutedClass}`}>{t(size ? 'image.planNeedsWidth' : 'image.planUrl')}</p>
      )}
      {plan?.smaller && (
        <div className="mt-4 rounded-xl bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/50 dark:text-amber-100" data-testid="image-smaller">
          <p>{t('image.planSmaller', { max: IMAGE_MAX_RESULT_SIDE, width: plan.result.width, height: plan.result.height })}</p>
          <button type="button" onClick={onCleanup} className={`${secondaryButtonClass} mt-3`} data-testid="image-use-cleanup">
            {t('image.useCleanup')}
          </button>
        </div>
      )}
      <h3 className="mt-4 text-sm font-semibold">{t('image.keptTitle')}</h3>
      <ul className="mt-1 space-y-1 text-sm" data-testid="image-kept">
        {keptNotes(traits, resultFormat).map((key) => (
          <li key={key} className={`flex gap-2 ${key === 'image.keptDetails' ? mutedClass : 'text-amber-800 dark:text-amber-300'}`}>
            {key === 'image.keptDetails' ? <Icon name="check" className="mt-0.5 size-4 shrink-0" /> : <Glyph name="alert" className="mt-0.5 size-4 shrink-0" />}
            <span>{t(key)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
