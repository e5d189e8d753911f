import { createContext, useContext } from 'react';

/**
 * The hydration data as the JSON text of its <script type="application/json"> block (see
 * Document): the server's serialisation, and in the browser the very text it read back, so the
 * element hydrates unchanged and never re-renders.
 */
export const HydrationJsonContext = createContext<string>('');
export const useHydrationJson = () => useContext(HydrationJsonContext);

/**
 * Inline scripts that do their work while the HTML is parsed (before the first paint), given by the
 * server only: the browser bundle does not carry their text, and hydration keeps the element as it is.
 */
export interface ParseTimeScripts {
  theme: string;
  hintsReveal: string;
  /** A guide's progress block's (PROGRESS_SCRIPT). */
  progress: string;
  /** A list of levels' marks and the home page's "Continue at level N" (PROGRESS_LIST_SCRIPT). */
  progressList: string;
  analytics: (id: string) => string;
}
export const ParseTimeScriptsContext = createContext<ParseTimeScripts>({ theme: '', hintsReveal: '', progress: '', progressList: '', analytics: () => '' });
export const useParseTimeScripts = () => useContext(ParseTimeScriptsContext);

/**
 * The document's stylesheets and module preloads (the entry's imports, the page's chunks), given by
 * the server only: the browser renders no such links, React keeps the server's in <head>, and so
 * the hydration data need not carry them.
 */
export interface DocumentAssets {
  styles: readonly string[];
  preloads: readonly string[];
}
export const DocumentAssetsContext = createContext<DocumentAssets>({ styles: [], preloads: [] });
export const useDocumentAssets = () => useContext(DocumentAssetsContext);
