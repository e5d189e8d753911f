import { use, useMemo } from 'react';
import { interpolate, useI18n, type MessageKey } from './i18n';
import { DEFAULT_LOCALE } from './locale';
import { PAGE_CATALOGUES } from './locales';
import pages from './messages/pages/en';

/**
 * The copy of the public pages other than the level guide (levels lists, content pages, home,
 * download, media, explore, blog, search, progress, offline) is a catalogue part of its own,
 * messages/pages/<code>.ts: only those pages import this module, so their long copy loads with them
 * and not with the entry every page downloads. The account, payment and image tool pages add a
 * part of their own on top (web/i18n/account-messages.ts).
 */
export type PageMessageKey = keyof typeof pages;
/** Like Translate, for the shared catalogue's keys and the page prose's. */
export type PageTranslate = (key: MessageKey | PageMessageKey, values?: Record<string, string | number>) => string;

/**
 * A catalogue part: English built in (`english`), another language loaded once per locale by
 * `loaders` (use() reads a settled promise without suspending again). The hook it returns takes the
 * locale and the `t` of the parts below (`base`): the page waits for the part, in the browser and
 * on the server, and the new `t` answers the part's keys and hands the others to `base`.
 */
export function cataloguePart<Key extends string>(english: Record<Key, string>, loaders: Record<string, () => Promise<{ default: Partial<Record<Key, string>> }>>) {
  const loaded = new Map<string, Promise<Partial<Record<Key, string>>>>();
  const load = (locale: string, loader: () => Promise<{ default: Partial<Record<Key, string>> }>) => {
    let promise = loaded.get(locale);
    if (!promise) {
      promise = loader().then(({ default: catalogue }) => catalogue);
      // A failed chunk is tried again on the next render rather than remembered.
      promise.catch(() => loaded.delete(locale));
      loaded.set(locale, promise);
    }
    return promise;
  };
  const isOwn = (key: string): key is Key => Object.hasOwn(english, key);
  return function useWith<Base extends string>(locale: string, base: (key: Base, values?: Record<string, string | number>) => string) {
    const loader = locale === DEFAULT_LOCALE ? undefined : loaders[locale];
    const own = loader && use(load(locale, loader));
    return useMemo(
      () =>
        (key: Base | Key, values?: Record<string, string | number>) =>
          isOwn(key) ? interpolate(own?.[key] ?? english[key], values) : base(key as Base, values),
      [base, own],
    );
  };
}

const usePagePart = cataloguePart<PageMessageKey>(pages, PAGE_CATALOGUES);

/**
 * useI18n() for the pages above: `t` also knows their keys. English is built in; another
 * language's prose loads with the first page that needs it (the page waits for it, in the
 * browser and on the server).
 */
export function usePageI18n() {
  const i18n = useI18n();
  const t: PageTranslate = usePagePart<MessageKey>(i18n.locale, i18n.t);
  return { ...i18n, t };
}
