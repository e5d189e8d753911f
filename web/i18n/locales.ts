import type { Catalogue } from './i18n';

/**
 * Every language of the site. Adding one: copy messages/en.ts to messages/<code>.ts, translate
 * the values (a missing key falls back to English), and add its line here. Routes, the language
 * picker and browser-language detection pick it up from this list.
 */
export const CATALOGUES: Record<string, () => Promise<{ default: Catalogue }>> = {
  en: async () => ({ default: {} }), // English is built in: it is the fallback of every other language.
};

export const LOCALES: readonly string[] = Object.keys(CATALOGUES);
