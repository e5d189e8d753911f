import { useId } from 'react';
import { IMAGE_MAX_EXACT_WIDTH, IMAGE_NOISE_LEVELS, IMAGE_OUTPUT_FORMATS, IMAGE_SCALES, isAiConversion, type ImageOptions } from 'src/contracts/images';
import { mutedClass } from 'web/components/account-ui';
import { useAccountI18n, type AccountMessageKey } from 'web/i18n/account-messages';
import { FORMAT_LABELS, hasQuality, type ImageChoices } from 'web/lib/image-tool';

const NOISE_KEYS: Record<ImageOptions['noise'], AccountMessageKey> = {
  auto: 'image.noiseAuto',
  none: 'image.noiseNone',
  low: 'image.noiseLow',
  medium: 'image.noiseMedium',
  high: 'image.noiseHigh',
};

const pillClass =
  'inline-flex cursor-pointer items-center rounded-full border border-gray-300 px-3.5 py-1.5 text-sm font-semibold transition hover:border-primary-400 has-checked:border-primary-700 has-checked:bg-primary-700 has-checked:text-white has-focus-visible:ring-2 has-focus-visible:ring-primary-500/50 dark:border-gray-700 dark:has-checked:border-primary-400 dark:has-checked:bg-primary-500 dark:has-checked:text-gray-950';
const fieldClass =
  'mt-1 block w-full rounded-xl border border-gray-300 bg-white px-3 py-2 text-base shadow-sm outline-none focus:border-primary-500 focus:ring-2 focus:ring-primary-500/30 aria-invalid:border-red-500 dark:border-gray-700 dark:bg-gray-900';

/**
 * The options beside the conversion: the size (AI: 1x clean-up to 4x, or an exact width) and the
 * noise reduction (AI), the output format, and the quality of a JPEG or WebP result.
 */
export function OptionsPanel({
  choices,
  onChange,
  fileType,
  widthError,
  onWidthBlur,
}: {
  choices: ImageChoices;
  onChange: (choices: ImageChoices) => void;
  fileType: string | undefined;
  widthError: AccountMessageKey | null;
  onWidthBlur: () => void;
}) {
  const { t } = useAccountI18n();
  const id = useId();
  const ai = isAiConversion(choices.choice);
  const set = (change: Partial<ImageChoices>) => onChange({ ...choices, ...change });
  const size = choices.size;
  return (
    <div className="space-y-6" data-testid="image-options">
      {ai && (
        <fieldset>
          <legend className="text-sm font-semibold">{t('image.size')}</legend>
          <div className="mt-3 flex flex-wrap gap-2">
            {IMAGE_SCALES.map((scale) => (
              <label key={scale} className={pillClass}>
                <input
                  type="radio"
                  name="size"
                  className="sr-only"
                  checked={size.kind === 'scale' && size.scale === scale}
                  onChange={() => set({ size: { kind: 'scale', scale } })}
                />
                {scale === 1 ? t('image.scaleCleanup') : t('image.scaleTimes', { scale })}
              </label>
            ))}
            <label className={pillClass}>
              <input type="radio" name="size" className="sr-only" checked={size.kind === 'width'} onChange={() => set({ size: { kind: 'width', width: size.kind === 'width' ? size.width : '' } })} />
              {t('image.exactWidth')}
            </label>
          </div>
          {size.kind === 'width' && (
            <div className="mt-3 max-w-xs">
              <label htmlFor={`${id}-width`} className="block text-sm font-medium">
                {t('image.exactWidthLabel')}
              </label>
              <input
                id={`${id}-width`}
                type="number"
                inputMode="numeric"
                min={1}
                max={IMAGE_MAX_EXACT_WIDTH}
                step={1}
                value={size.width}
                onChange={(event) => set({ size: { kind: 'width', width: event.target.value } })}
                onBlur={onWidthBlur}
                aria-invalid={widthError ? true : undefined}
                aria-describedby={widthError ? `${id}-width-error` : undefined}
                data-testid="image-width"
                className={fieldClass}
              />
              {widthError && (
                <p id={`${id}-width-error`} className="mt-1 text-sm text-red-600 dark:text-red-400" data-testid="image-width-error">
                  {t(widthError, { max: IMAGE_MAX_EXACT_WIDTH })}
                </p>
              )}
            </div>
          )}
          <p className={`mt-2 text-sm ${mutedClass}`}>{t('image.sizeHelp')}</p>
        </fieldset>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        {ai && (
          <div>
            <label htmlFor={`${id}-noise`} className="block text-sm font-semibold">
              {t('image.noise')}
            </label>
            <select id={`${id}-noise`} value={choices.noise} onChange={(event) => set({ noise: event.target.value as ImageOptions['noise'] })} data-testid="image-noise" className={fieldClass}>
              {(['auto', ...IMAGE_NOISE_LEVELS] as const).map((noise) => (
                <option key={noise} value={noise}>
                  {t(NOISE_KEYS[noise])}
                </option>
              ))}
            </select>
          </div>
        )}
        <div>
          <label htmlFor={`${id}-format`} className="block text-sm font-semibold">
            {t('image.format')}
          </label>
          <select
            id={`${id}-format`}
            value={choices.format}
            onChange={(event) => set({ format: event.target.value as ImageOptions['format'] })}
            aria-describedby={`${id}-format-help`}
            data-testid="image-format"
            className={fieldClass}
          >
            {IMAGE_OUTPUT_FORMATS.map((format) => (
              <option key={format} value={format}>
                {format === 'auto' ? t('image.formatAuto') : FORMAT_LABELS[format].label}
              </option>
            ))}
          </select>
          <p id={`${id}-format-help`} className={`mt-1 text-xs ${mutedClass}`}>
            {t('image.formatHelp')}
          </p>
        </div>
        {hasQuality(choices.format, fileType) && (
          <div>
            <label htmlFor={`${id}-quality`} className="block text-sm font-semibold">
              {t('image.quality')}
            </label>
            <div className="mt-1 flex items-center gap-3">
              <input
                id={`${id}-quality`}
                type="range"
                min={1}
                max={100}
                value={choices.quality}
                onChange={(event) => set({ quality: Number(event.target.value) })}
                aria-describedby={`${id}-quality-help`}
                data-testid="image-quality"
                className="w-full accent-primary-600"
              />
              <output htmlFor={`${id}-quality`} className="w-9 text-right font-semibold tabular-nums">
                {choices.quality}
              </output>
            </div>
            <p id={`${id}-quality-help`} className={`mt-1 text-xs ${mutedClass}`}>
              {t('image.qualityHelp')}
            </p>
          </div>
        )}
      </div>
    </div>
  );
}
