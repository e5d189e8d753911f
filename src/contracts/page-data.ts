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
