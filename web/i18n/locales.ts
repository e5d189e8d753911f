import type en from './messages/en';
import type pages from './messages/pages/en';

// The catalogue shapes, spelled out here rather than imported, so this list depends on no module that depends on it.
type Catalogue = Partial<Record<keyof typeof en, string>>;
type PageCatalogue = Partial<Record<keyof typeof pages, string>>;

/**
 * Every language of the site. Its messages come in two parts: messages/<code>.ts holds what every
 * page shows and the level guides, loaded before the first render; messages/pages/<code>.ts holds
 * the copy of the other pages (levels list, content, home, download, media, explore, blog), loaded
 * only with them, which keeps it out of the entry every page downloads (the bundle budget).
 *
 * Adding a language means adding files:
 * 1. copy messages/en.ts to messages/<code>.ts and messages/pages/en.ts to messages/pages/<code>.ts,
 *    and translate the values (a missing key, or a missing file, falls back to English);
 * 2. add its line to CATALOGUES, e.g. `fr: () => import('./messages/fr'),`
 * 3. and, with the pages file, to PAGE_CATALOGUES: `fr: () => import('./messages/pages/fr'),`
 * Routes, the language picker and browser-language detection pick it up from CATALOGUES.
 */
export const CATALOGUES: Record<string, () => Promise<{ default: Catalogue }>> = {
  en: async () => ({ default: {} }), // English is built in: it is the fallback of every other language.
};

/** The pages part of each language but English (English is built into the pages that show it). */
export const PAGE_CATALOGUES: Record<string, () => Promise<{ default: PageCatalogue }>> = {};

export const LOCALES: readonly string[] = Object.keys(CATALOGUES);
