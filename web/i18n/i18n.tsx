import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { DEFAULT_LOCALE, FALLBACK_TAG } from './locale';
import { CATALOGUES } from './locales';
import en from './messages/en';

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

export function languageName(code: string): string {
  try {
    return new Intl.DisplayNames([code], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The tag for number and date formatting: the spec's fallback en-US for English. */
export const formattingTag = (locale: string) => (locale === DEFAULT_LOCALE ? FALLBACK_TAG : locale);

/** Loads a language's messages over English; unknown locales get English. */
export async function loadMessages(locale: string): Promise<Messages> {
  const load = CATALOGUES[locale];
  if (!load || locale === DEFAULT_LOCALE) return en;
  const { default: catalogue } = await load();
  return { ...en, ...catalogue };
}

/** Replaces {name} placeholders; a placeholder without a value stays visible, so it gets noticed. */
export function interpolate(message: string, values?: Record<string, string | number>): string {
  if (!values) return message;
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

interface I18nValue {
  locale: string;
  tag: string;
  t: Translate;
}

const I18nContext = createContext<I18nValue | null>(null);

export function I18nProvider({ locale, messages, children }: { locale: string; messages: Messages; children: ReactNode }) {
  const value = useMemo<I18nValue>(
    () => ({ locale, tag: formattingTag(locale), t: (key, values) => interpolate(messages[key] ?? en[key] ?? key, values) }),
    [locale, messages],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** English outside a provider (the last-resort error document renders without one). */
const ENGLISH: I18nValue = { locale: DEFAULT_LOCALE, tag: FALLBACK_TAG, t: (key, values) => interpolate(en[key] ?? key, values) };

export const useI18n = () => useContext(I18nContext) ?? ENGLISH;
export const useT = () => useI18n().t;
