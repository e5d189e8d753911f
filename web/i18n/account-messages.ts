import { ACCOUNT_CATALOGUES } from './locales';
import type { MessageKey } from './i18n';
import account from './messages/account/en';
import { cataloguePart, usePageI18n, type PageMessageKey } from './page-messages';

/**
 * The copy of the account pages, pricing, payments, billing and usage, the image tool and the guide
 * report form: the catalogue's third part (messages/account/<code>.ts), imported by those pages
 * only. It is two thirds of all page prose; the home page, the level lists and the blog, which most
 * visitors open first, never download it.
 */
export type AccountMessageKey = keyof typeof account;
/** Like PageTranslate, for the account prose's keys too. */
export type AccountTranslate = (key: MessageKey | PageMessageKey | AccountMessageKey, values?: Record<string, string | number>) => string;

const useAccountPart = cataloguePart<AccountMessageKey>(account, ACCOUNT_CATALOGUES);

/** usePageI18n() for the pages above: `t` also knows their keys (another language's loads with the first of them). */
export function useAccountI18n() {
  const i18n = usePageI18n();
  const t: AccountTranslate = useAccountPart<MessageKey | PageMessageKey>(i18n.locale, i18n.t);
  return { ...i18n, t };
}
