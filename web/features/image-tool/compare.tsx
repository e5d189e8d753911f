import { useState } from 'react';
import type { ImageJobView } from 'src/contracts/images';
import { mutedClass } from 'web/components/account-ui';
import { Icon } from 'web/components/icons';
import { useAccountI18n } from 'web/i18n/account-messages';
import { jobFileUrl } from 'web/lib/image-tool';

/**
 * Before and after on top of each other, at the result's size: a slider (a range input, so the
 * keyboard moves it too) shows the input as converted on its left and the result on its right.
 */
export function Compare({ job, input, result }: { job: ImageJobView; input: NonNullable<ImageJobView['input']>; result: NonNullable<ImageJobView['result']> }) {
  const { t } = useAccountI18n();
  const [split, setSplit] = useState(50);
  const ratio = result.width / result.height;
  const tagClass = 'pointer-events-none absolute top-3 rounded-full bg-gray-950/70 px-2.5 py-1 text-xs font-semibold text-white';
  return (
    <figure>
      <div
        className="relative mx-auto w-full overflow-hidden rounded-2xl bg-gray-100 select-none has-focus-visible:ring-2 has-focus-visible:ring-primary-500 dark:bg-gray-800"
        style={{ aspectRatio: `${result.width} / ${result.height}`, maxWidth: `min(100%, ${Math.max(result.width, 320)}px, calc(70vh * ${ratio.toFixed(4)}))` }}
      >
        <img src={jobFileUrl(job.id, 'result')} alt={t('image.afterAlt', { width: result.width, height: result.height })} className="absolute inset-0 size-full object-contain" data-testid="image-result" />
        <img
          src={jobFileUrl(job.id, 'preview')}
          alt={t('image.beforeAlt', { width: input.width, height: input.height })}
          className="absolute inset-0 size-full object-contain"
          style={{ clipPath: `inset(0 ${100 - split}% 0 0)` }}
          data-testid="image-preview"
        />
        <div aria-hidden="true" className="pointer-events-none absolute inset-y-0 w-0.5 -translate-x-1/2 bg-white shadow-[0_0_0_1px_rgba(0,0,0,0.25)]" style={{ left: `${split}%` }}>
          <span className="absolute top-1/2 left-1/2 flex size-9 -translate-1/2 items-center justify-center rounded-full bg-white text-gray-900 shadow-md">
            <Icon name="chevronLeft" className="size-4" />
            <Icon name="chevronRight" className="-ml-1 size-4" />
          </span>
        </div>
        <span className={`${tagClass} left-3`} aria-hidden="true">
          {t('image.before')}
        </span>
        <span className={`${tagClass} right-3`} aria-hidden="true">
          {t('image.after')}
        </span>
        <input
          type="range"
          min={0}
          max={100}
          value={split}
          onChange={(event) => setSplit(Number(event.target.value))}
          aria-label={t('image.compare')}
          aria-valuetext={`${t('image.before')} ${split}%, ${t('image.after')} ${100 - split}%`}
          data-testid="image-compare"
          className="absolute inset-0 size-full cursor-ew-resize opacity-0"
        />
      </div>
      {/* Two sizes, never run together: apart on a wide screen, one under the other on a narrow one. */}
      <figcaption className={`mt-2 flex flex-col gap-x-8 gap-y-0.5 text-sm sm:flex-row sm:justify-between ${mutedClass}`} data-testid="image-compare-caption">
        <span>{t('image.beforeSize', { width: input.width, height: input.height })}</span>
        <span>{t('image.afterSize', { width: result.width, height: result.height })}</span>
      </figcaption>
    </figure>
  );
}
