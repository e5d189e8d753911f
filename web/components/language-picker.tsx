import { languageName, useI18n } from 'web/i18n/i18n';
import { localizePath, rememberLocale } from 'web/i18n/locale';
import { LOCALES } from 'web/i18n/locales';
import { useLocation } from 'web/lib/router/router';

/**
 * The language picker: shown only when the site has more than one language. Switching keeps the
 * page and its query string, remembers the choice in the locale cookie, and loads the page in the
 * new language (a full load: the new messages come with it).
 */
export function LanguagePicker() {
  const { locale, t } = useI18n();
  const { pathname, search } = useLocation();
  if (LOCALES.length < 2) return null;
  return (
    <select
      aria-label={t('header.language')}
      value={locale}
      onChange={(event) => {
        const next = event.target.value;
        rememberLocale(next);
        window.location.assign(localizePath(pathname + search, next) + window.location.hash);
      }}
      className="h-9 rounded-full border border-gray-200 bg-transparent px-2 text-sm text-gray-700 dark:border-gray-700 dark:text-gray-200"
    >
      {LOCALES.map((code) => (
        <option key={code} value={code}>
          {languageName(code)}
        </option>
      ))}
    </select>
  );
}
