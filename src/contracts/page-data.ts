import type { PublicConfig } from './public-config';

/**
 * What page loaders may ask the server for: the site's rules, and one section per module (`levels`,
 * `content`, ...), implemented in `src/modules/<name>/adapters/pages/` and composed by the SSR
 * bridge. Each module declares its section in its own contract file, `src/contracts/<name>.ts`,
 * by declaration merging (`declare module './page-data' { interface PageData { readonly levels:
 * LevelsPages } }`): a module adds its section without editing this file.
 */
export interface PageData {
  readonly config: PublicConfig;
  /** Redirect rules by path (server configuration): the page answers 301 to the target. */
  readonly redirects: ReadonlyMap<string, string>;
}

/** The modules' sections of the page data: what a route lists in `sections` for its loader. */
export type PageSectionName = Exclude<keyof PageData, 'config' | 'redirects'>;

/** Files the browser needs for the page, from the client build's manifest (or Vite in development). */
export interface PageAssets {
  /** Module scripts, in order; the last one is the client entry. */
  scripts: string[];
  styles: string[];
  /** Chunks the entry imports, preloaded so they download in parallel. */
  preloads: string[];
  /**
   * The build's page chunk map (PAGE_CHUNKS_ASSET), read by the server: it preloads the rendered
   * page's chunks, and the browser fetches the map from `url` when it first goes to another page.
   * None in development, where Vite serves modules one by one.
   */
  pageChunks?: { url: string; map: PageChunks };
}

/** The page chunk map's name in the client build's manifest (written by scripts/route-objects.mts). */
export const PAGE_CHUNKS_ASSET = 'page-chunks.json';

/**
 * Each page's chunks, by route id ('level'): every file is named once and pages list indexes into
 * `files`. A file of its own (hashes do not compress: written out per page, in every page's HTML,
 * the map cost 3.6 KB of each response), fetched once by the browser.
 */
export interface PageChunks {
  files: string[];
  pages: Record<string, number[]>;
}

/** The files of a page: its chunk first, then its imports. */
export function chunksOfPage(chunks: PageChunks | undefined, key: string | undefined): string[] {
  if (!chunks || !key) return [];
  return (chunks.pages[key] ?? []).map((i) => chunks.files[i]!);
}

/**
 * Data of the root route: what the layout needs, sent once with the first page in its hydration
 * data. The document's script and style links are the server's alone (the browser renders none).
 */
export interface RootData {
  config: PublicConfig;
  buildId: string;
  /** The URL of the page chunk map (PageAssets.pageChunks), fetched when the browser first goes to another page. */
  pageChunks?: string;
}
