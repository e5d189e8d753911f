import type en from './messages/en';
import type account from './messages/account/en';
import type pages from './messages/pages/en';

// The catalogue shapes, spelled out here rather than imported, so this list depends on no module that depends on it.
type Catalogue = Partial<Record<keyof typeof en, string>>;
type PageCatalogue = Partial<Record<keyof typeof pages, string>>;
type AccountCatalogue = Partial<Record<keyof typeof account, string>>;

/**
 * Every language of the site. Its messages come in three parts: messages/<code>.ts holds what every
 * page shows and the level guides, loaded before the first render; messages/pages/<code>.ts holds
 * the copy of the other public pages (levels list, content, home, download, media, explore, blog),
 * loaded only with them, which keeps it out of the entry every page downloads (the bundle budget);
 * messages/account/<code>.ts holds the account, payment, image tool and report pages' copy, loaded
 * only with those.
 *
 * Adding a language means adding files:
 * 1. copy messages/en.ts, messages/pages/en.ts and messages/account/en.ts to <code>.ts beside each,
 *    and translate the values (a missing key, or a missing file, falls back to English);
 * 2. add its line to CATALOGUES, e.g. `fr: () => import('./messages/fr'),`
 * 3. and, with the other files, to PAGE_CATALOGUES (`fr: () => import('./messages/pages/fr'),`)
 *    and ACCOUNT_CATALOGUES (`fr: () => import('./messages/account/fr'),`).
 * Routes, the language picker and browser-language detection pick it up from CATALOGUES.
 */
export const CATALOGUES: Record<string, () => Promise<{ default: Catalogue }>> = {
  en: async () => ({ default: {} }), // English is built in: it is the fallback of every other language.
};

/** The pages part of each language but English (English is built into the pages that show it). */
export const PAGE_CATALOGUES: Record<string, () => Promise<{ default: PageCatalogue }>> = {};

/** The account part of each language but English (English is built into the pages that show it). */
export const ACCOUNT_CATALOGUES: Record<string, () => Promise<{ default: AccountCatalogue }>> = {};

export const LOCALES: readonly string[] = Object.keys(CATALOGUES);
