import 'web/lib/zod-jitless';
import { useEffect, useId, useRef } from 'react';
import { IMAGE_MAX_BYTES } from 'src/contracts/images';
import { imageUrlSchema } from 'src/contracts/images.schema';
import { mutedClass } from 'web/components/account-ui';
import { useAccountI18n } from 'web/i18n/account-messages';
import { formatBytes } from 'web/lib/image-tool';

/** Spec: the URL field's hint shows this long after the last keystroke (as the account forms). */
const VALIDATION_DEBOUNCE_MS = 300;

/** The image URL field; the hint shows 300 ms after typing stops while the address is not a valid http(s) URL. */
export function UrlPanel({ value, invalid, onChange }: { value: string; invalid: boolean; onChange: (value: string, invalid: boolean) => void }) {
  const { t, tag } = useAccountI18n();
  const id = useId();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <div>
      <label htmlFor={`${id}-url`} className="block text-sm font-medium">
        {t('image.urlLabel')}
      </label>
      <input
        id={`${id}-url`}
        type="url"
        name="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder={t('image.urlPlaceholder')}
        value={value}
        onChange={(event) => {
          const next = event.target.value;
          onChange(next, false);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => onChange(next, !imageUrlSchema.safeParse(next).success), VALIDATION_DEBOUNCE_MS);
        }}
        aria-invalid={invalid || undefined}
        aria-describedby={`${id}-help${invalid ? ` ${id}-error` : ''}`}
        data-testid="image-url"
        className="mt-1 block w-full rounded-xl border border-gray-300 bg-white px-3.5 py-2.5 text-base shadow-sm outline-none focus:border-primary-500 focus:ring-2 focus:ring-primary-500/30 aria-invalid:border-red-500 dark:border-gray-700 dark:bg-gray-900"
      />
      {invalid && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-600 dark:text-red-400" data-testid="image-url-hint">
          {t('image.urlHint')}
        </p>
      )}
      <p id={`${id}-help`} className={`mt-2 text-sm ${mutedClass}`}>
        {t('image.urlHelp', { max: formatBytes(IMAGE_MAX_BYTES, tag) })}
      </p>
    </div>
  );
}
