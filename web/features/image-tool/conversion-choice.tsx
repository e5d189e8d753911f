import { useId } from 'react';
import { IMAGE_CONVERSION_LIMITS, IMAGE_CONVERSIONS, type ImageConversion } from 'src/contracts/images';
import { mutedClass } from 'web/components/account-ui';
import { usePageI18n } from 'web/i18n/page-messages';
import { CONVERSION_KEYS } from 'web/lib/image-tool';

/** The conversions as radio cards: name, one line on what it does, and the input bound. */
export function ConversionChoice({ value, onChange }: { value: ImageConversion; onChange: (value: ImageConversion) => void }) {
  const { t } = usePageI18n();
  const id = useId();
  return (
    <fieldset>
      <legend className="text-sm font-semibold">{t('image.conversion')}</legend>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        {IMAGE_CONVERSIONS.map((conversion) => {
          const keys = CONVERSION_KEYS[conversion];
          const limits = IMAGE_CONVERSION_LIMITS[conversion];
          return (
            <label
              key={conversion}
              className="relative flex cursor-pointer gap-3 rounded-2xl border border-gray-200 p-3 transition sm:p-4 hover:border-primary-400 has-checked:border-primary-600 has-checked:bg-primary-50 has-checked:ring-1 has-checked:ring-primary-600 has-focus-visible:ring-2 has-focus-visible:ring-primary-500/40 dark:border-gray-800 dark:has-checked:border-primary-400 dark:has-checked:bg-primary-950/40 dark:has-checked:ring-primary-400"
            >
              <input
                type="radio"
                name="conversion"
                value={conversion}
                checked={value === conversion}
                onChange={() => onChange(conversion)}
                aria-labelledby={`${id}-${conversion}-name`}
                aria-describedby={`${id}-${conversion}-text ${id}-${conversion}-bound`}
                className="mt-1 size-4 shrink-0 accent-primary-600"
              />
              <span className="min-w-0">
                <span id={`${id}-${conversion}-name`} className="flex items-center gap-2 font-semibold">
                  {t(keys.name)}
                  {limits.scale > 1 && <span aria-hidden="true" className="rounded-md bg-gray-100 px-1.5 text-xs font-bold text-gray-600 dark:bg-gray-800 dark:text-gray-300">{limits.scale}×</span>}
                </span>
                <span id={`${id}-${conversion}-text`} className={`mt-0.5 block text-sm ${mutedClass}`}>
                  {t(keys.description)}
                </span>
                <span id={`${id}-${conversion}-bound`} className="mt-1 block text-xs text-gray-500 dark:text-gray-400">
                  {t('image.bound', { max: limits.maxInputSide })}
                </span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
