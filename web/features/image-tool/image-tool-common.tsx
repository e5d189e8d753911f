import type { AccountTranslate } from 'web/i18n/account-messages';
import type { ImageTraits, Words } from 'web/lib/image-tool';

export const API = '/api/v1/images';

export type Source = 'upload' | 'url';

/** The chosen file: its problem, if any, and (once read) its size in pixels, a small preview and what it is. */
export interface Chosen {
  file: File;
  problem: string | null;
  width?: number;
  height?: number;
  thumbnail?: string;
  traits?: ImageTraits;
}

export const say = (t: AccountTranslate, words: Words) => t(words.key, words.values);

/** "4032 × 3024": a size as the page writes it (digits as they are, so sizes read alike everywhere). */
export const dimensions = (size: { width: number; height: number }) => `${size.width} × ${size.height}`;

/** Glyphs only this page needs (kept out of the shared icon set, which every page downloads). */
const GLYPHS = {
  upload: 'M12 15V3M7 8l5-5 5 5M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4',
  alert: 'M12 9v4M12 17h.01M10.29 3.86 1.82 18a2 2 0 0 0 1.71 3h16.94a2 2 0 0 0 1.71-3L13.71 3.86a2 2 0 0 0-3.42 0z',
  link: 'M10 13a5 5 0 0 0 7.54.54l3-3a5 5 0 0 0-7.07-7.07l-1.72 1.71M14 11a5 5 0 0 0-7.54-.54l-3 3a5 5 0 0 0 7.07 7.07l1.71-1.71',
};

export function Glyph({ name, className }: { name: keyof typeof GLYPHS; className: string }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" className={className}>
      <path d={GLYPHS[name]} />
    </svg>
  );
}
