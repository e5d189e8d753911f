import type { AdminOrderDetail, AdminOrderView, OrderStatus, Paged, PricingData, RefusedEventView } from './billing';
import type { ContentPageView, ExploreData, MediaEntry, PostListData, PostListQuery, PostView } from './content';
import type { GuideInsightsData, GuideInsightsQuery } from './guide-insights';
import type { GuideReportPageData } from './guide-reports';
import type { GuideRanges, LevelListData, LevelListQuery, LevelPageData, LevelSummary } from './levels';
import type { AdminAttentionData, AdminQueuesData, ErrorGroupView, ErrorScope } from './ops';
import type { PublicConfig } from './public-config';
import type { SearchResults } from './search';

/**
 * What page loaders may ask the server for. The SSR bridge implements it with in-process calls to
 * application services; each module adds the read methods its pages need.
 */
export interface PageData {
  readonly config: PublicConfig;
  /** Redirect rules by path (server configuration): the page answers 301 to the target. */
  readonly redirects: ReadonlyMap<string, string>;
  readonly levels: {
    page(number: number): Promise<LevelPageData>;
    list(query: LevelListQuery): Promise<LevelListData>;
    /** The hard guides, longest reference time first (a list page's worth), and how many hard guides there are. */
    hardest(): Promise<{ levels: LevelSummary[]; total: number }>;
    featured(): Promise<LevelSummary[]>;
    /** The levels with a published guide, as runs ("1-5 7 9"): where "Continue at level N" goes. */
    guideRanges(): Promise<GuideRanges>;
  };
  readonly content: {
    page(slug: string): Promise<ContentPageView | null>;
    post(slug: string): Promise<PostView | null>;
    posts(query: PostListQuery): Promise<PostListData>;
    media(): Promise<MediaEntry[]>;
    explore(): Promise<ExploreData>;
  };
  readonly billing: {
    /** The credit packs, trial and donation terms; null while payments are off (has_payment). */
    pricing(): Promise<PricingData | null>;
    /** Admin pages only (route access 'admin'); null while payments are off. */
    adminOrders(filter: { email?: string; number?: string; status?: OrderStatus }, page: number): Promise<Paged<AdminOrderView> | null>;
    /** Null for no such order, or payments off. */
    adminOrder(id: string): Promise<AdminOrderDetail | null>;
    /** Signed webhook events acknowledged but not applied, newest first; null while payments are off. */
    refusedEvents(page: number): Promise<Paged<RefusedEventView> | null>;
  };
  readonly search: {
    /** The one search over guides, posts and pages (the query as typed; the page cuts it to 100 characters). */
    results(query: string): Promise<SearchResults>;
  };
  readonly guideReports: {
    /** Which guide the report page is about; null when the level has no published guide. */
    page(number: number): Promise<GuideReportPageData | null>;
  };
  /** /admin/guides (admins only): the guides with what players said and did, and the most wanted missing ones. */
  readonly guideInsights: {
    overview(query: GuideInsightsQuery): Promise<GuideInsightsData>;
  };
  /** For the admin pages only: the SSR bridge renders them for admins alone (route access 'admin'). */
  readonly ops: {
    /** The most recently seen error groups first. */
    errors(scope: ErrorScope): Promise<ErrorGroupView[]>;
    queues(): Promise<AdminQueuesData>;
    attention(): Promise<AdminAttentionData>;
  };
}

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
