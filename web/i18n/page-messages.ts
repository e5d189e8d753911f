import { use, useMemo } from 'react';
import { interpolate, useI18n, type MessageKey } from './i18n';
import { DEFAULT_LOCALE } from './locale';
import { PAGE_CATALOGUES } from './locales';
import pages from './messages/pages/en';

/**
 * The copy of the pages other than the level guide (levels list, content, home, download, media,
 * explore, blog, accounts, payments) is a catalogue part of its own, messages/pages/<code>.ts: only those pages import
 * this module, so their long copy loads with them and not with the entry every page downloads.
 */
export type PageMessageKey = keyof typeof pages;
/** A language's page prose; any key it lacks is shown in English. */
export type PageCatalogue = Partial<Record<PageMessageKey, string>>;
/** Like Translate, for the shared catalogue's keys and the page prose's. */
export type PageTranslate = (key: MessageKey | PageMessageKey, values?: Record<string, string | number>) => string;

const loaded = new Map<string, Promise<PageCatalogue>>();

/** A language's page prose, loaded once (use() reads a settled promise without suspending again). */
function pageCatalogue(locale: string, load: () => Promise<{ default: PageCatalogue }>): Promise<PageCatalogue> {
  let promise = loaded.get(locale);
  if (!promise) {
    promise = load().then(({ default: catalogue }) => catalogue);
    // A failed chunk is tried again on the next render rather than remembered.
    promise.catch(() => loaded.delete(locale));
    loaded.set(locale, promise);
  }
  return promise;
}

const isPageKey = (key: string): key is PageMessageKey => Object.hasOwn(pages, key);

/**
 * useI18n() for the pages above: `t` also knows their keys. English is built in; another
 * language's prose loads with the first page that needs it (the page waits for it, in the
 * browser and on the server).
 */
export function usePageI18n() {
  const i18n = useI18n();
  const load = i18n.locale === DEFAULT_LOCALE ? undefined : PAGE_CATALOGUES[i18n.locale];
  const own = load && use(pageCatalogue(i18n.locale, load));
  const t = useMemo<PageTranslate>(
    () => (key, values) => (isPageKey(key) ? interpolate(own?.[key] ?? pages[key], values) : i18n.t(key, values)),
    [i18n, own],
  );
  return { ...i18n, t };
}
