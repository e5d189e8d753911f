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
  /** Per page: its chunk and the chunks it imports (read with chunksOfPage). */
  pageChunks?: PageChunks;
}

/**
 * Each page's chunks, sent in every page's hydration data: every file is named once and pages list
 * indexes into `files`, under their route id ('level'). Written out per page, the same paths
 * repeated would add some 5 KB to every page. The server reads the build's manifest by page module
 * and keys the map by route id (forRoutes), so the browser needs no module paths.
 */
export interface PageChunks {
  files: string[];
  pages: Record<string, number[]>;
}

/** PageChunks from each page's list of files, by any key (the build's page modules). */
export function pageChunkMap(byKey: Record<string, string[]>): PageChunks {
  const files: string[] = [];
  const index = new Map<string, number>();
  const pages: Record<string, number[]> = {};
  for (const [key, list] of Object.entries(byKey)) {
    pages[key] = list.map((file) => {
      if (!index.has(file)) index.set(file, files.push(file) - 1);
      return index.get(file)!;
    });
  }
  return { files, pages };
}

/** The same map keyed by route id: `modules` gives each route's page module. */
export function forRoutes(chunks: PageChunks, modules: Record<string, string | undefined>): PageChunks {
  const pages: Record<string, number[]> = {};
  for (const [routeId, module] of Object.entries(modules)) {
    const list = module && chunks.pages[module];
    if (list) pages[routeId] = list;
  }
  return { files: chunks.files, pages };
}

/** The files of a page: its chunk first, then its imports. */
export function chunksOfPage(chunks: PageChunks | undefined, key: string | undefined): string[] {
  if (!chunks || !key) return [];
  return (chunks.pages[key] ?? []).map((i) => chunks.files[i]!);
}

/** Data of the root route: everything the layout needs, sent once with the first page. */
export interface RootData {
  config: PublicConfig;
  assets: PageAssets;
  buildId: string;
}
