import { useId } from 'react';
import { IMAGE_CONVERSION_LIMITS, isAiConversion } from 'src/contracts/images';
import { mutedClass } from 'web/components/account-ui';
import { useAccountI18n } from 'web/i18n/account-messages';
import { CHOICE_KEYS, CONVERSION_CHOICES, type ConversionChoice as Choice } from 'web/lib/image-tool';

/** Radio cards of the page: a label wrapping its radio, the checked one outlined. */
const radioCardClass =
  'relative flex cursor-pointer gap-3 rounded-2xl border border-gray-200 p-3 transition sm:p-4 hover:border-primary-400 has-checked:border-primary-600 has-checked:bg-primary-50 has-checked:ring-1 has-checked:ring-primary-600 has-focus-visible:ring-2 has-focus-visible:ring-primary-500/40 dark:border-gray-800 dark:has-checked:border-primary-400 dark:has-checked:bg-primary-950/40 dark:has-checked:ring-primary-400';

/** The conversions as radio cards: name, one line on what it does, and the input bound (AI 4x is AI upscale at 4x). */
export function ConversionChoice({ value, onChange }: { value: Choice; onChange: (value: Choice) => void }) {
  const { t } = useAccountI18n();
  const id = useId();
  return (
    <fieldset>
      <legend className="text-sm font-semibold">{t('image.conversion')}</legend>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        {CONVERSION_CHOICES.map((choice) => {
          const keys = CHOICE_KEYS[choice];
          const limits = IMAGE_CONVERSION_LIMITS[choice];
          const ai = isAiConversion(choice);
          return (
            <label key={choice} className={radioCardClass}>
              <input
                type="radio"
                name="conversion"
                value={choice}
                checked={value === choice}
                onChange={() => onChange(choice)}
                aria-labelledby={`${id}-${choice}-name`}
                aria-describedby={`${id}-${choice}-text ${id}-${choice}-bound`}
                className="mt-1 size-4 shrink-0 accent-primary-600"
              />
              <span className="min-w-0">
                <span id={`${id}-${choice}-name`} className="flex items-center gap-2 font-semibold">
                  {t(keys.name)}
                  {!ai && limits.scale > 1 && (
                    <span aria-hidden="true" className="rounded-md bg-gray-100 px-1.5 text-xs font-bold text-gray-600 dark:bg-gray-800 dark:text-gray-300">
                      {limits.scale}×
                    </span>
                  )}
                </span>
                <span id={`${id}-${choice}-text`} className={`mt-0.5 block text-sm ${mutedClass}`}>
                  {t(keys.description)}
                </span>
                <span id={`${id}-${choice}-bound`} className="mt-1 block text-xs text-gray-500 dark:text-gray-400">
                  {ai ? t('image.boundAi', { max: limits.maxInputSide, max4: IMAGE_CONVERSION_LIMITS['ai-4x'].maxInputSide }) : t('image.bound', { max: limits.maxInputSide })}
                </span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
