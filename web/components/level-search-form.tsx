import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'web/lib/router/router';
import { LEVEL_SEARCH_MESSAGES, parseLevelSearch } from 'src/contracts/level-number';
import { useT, type MessageKey, type Translate } from 'web/i18n/i18n';
import { useSiteConfig } from 'web/lib/root-data';
import { Icon } from './icons';

/** The contract's messages stay English (the server answers them too); they are translated here. */
const MESSAGE_KEYS: Record<string, MessageKey> = {
  [LEVEL_SEARCH_MESSAGES.empty]: 'search.empty',
  [LEVEL_SEARCH_MESSAGES.invalid]: 'search.invalid',
};

/** A level-search message in the current language; an unknown one is shown as it is. */
export function levelSearchMessage(message: string, t: Translate): string {
  const key = MESSAGE_KEYS[message];
  return key ? t(key) : message;
}

/**
 * The search box of the header and the home hero: a level number goes straight to its guide (with
 * the level search's messages), words to /search. With JavaScript a number is checked and opened
 * in place; words, and everything without JavaScript, are the plain GET form /search answers.
 */
export function LevelSearchForm({ size = 'sm', autoFocus = false, label }: { size?: 'sm' | 'lg'; autoFocus?: boolean; label?: string }) {
  const { levels } = useSiteConfig();
  const navigate = useNavigate();
  const t = useT();
  const [value, setValue] = useState('');
  const [message, setMessage] = useState<string>();
  const inputId = useId();
  const messageId = useId();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    // Words go to /search as the plain GET form they are (no script for it in every page's bundle).
    if (/\D/.test(value.trim())) return;
    event.preventDefault();
    const result = parseLevelSearch(value, levels.searchMax);
    if (!result.ok) {
      setMessage(result.message);
      return;
    }
    setMessage(undefined);
    setValue('');
    void navigate(`/levels/${result.level}`);
  }

  const large = size === 'lg';
  return (
    <form
      role="search"
      // Each search landmark on a page has its own name (the header's, the hero's, a page's own).
      aria-label={label ?? t(large ? 'search.heroLandmark' : 'search.headerLandmark')}
      action="/search"
      method="get"
      onSubmit={onSubmit}
      className="relative w-full"
    >
      <label htmlFor={inputId} className="sr-only">
        {t('search.label')}
      </label>
      <div
        className={`search-box ${
          message ? 'border-red-400 dark:border-red-500' : 'border-gray-300 dark:border-gray-700'
        } ${large ? 'p-1.5 pl-5' : 'p-1 pl-3 sm:pl-3.5'}`}
      >
        <input
          id={inputId}
          name="q"
          maxLength={100}
          autoFocus={autoFocus}
          placeholder={t(large ? 'search.placeholderLarge' : 'search.placeholder')}
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            if (message) setMessage(undefined);
          }}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? messageId : undefined}
          className={`search-input ${
            large ? 'py-2 text-lg' : 'py-1 text-sm'
          }`}
        />
        <button
          type="submit"
          aria-label={t('search.submit')}
          className={`search-submit ${
            large ? 'px-4 py-3 text-base sm:px-6' : 'size-7 sm:size-8'
          }`}
        >
          <Icon name="search" className={large ? 'size-5' : 'size-4'} />
          {/* The word from the sm breakpoint: on phones the box needs the room for its placeholder. */}
          {large && <span className="sr-only sm:not-sr-only">{t('search.submit')}</span>}
        </button>
      </div>
      {message && (
        <p
          id={messageId}
          role="alert"
          className={`font-medium text-red-600 dark:text-red-400 ${
            large ? 'mt-2 pl-5 text-sm' : 'absolute top-full left-3 mt-1 text-xs whitespace-nowrap'
          }`}
        >
          {levelSearchMessage(message, t)}
        </p>
      )}
    </form>
  );
}
