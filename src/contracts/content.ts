/** A content page (/terms-of-service, /faq, ...) as pages show it. */
export interface ContentPageView {
  slug: string;
  title: string;
  description: string;
  html: string;
  /** YYYY-MM-DD */
  updatedOn: string;
}

export interface PostSummary {
  /** May span several path segments: /blog/{slug}. */
  slug: string;
  title: string;
  description: string;
  /** ISO 8601 */
  publishedAt: string;
  tags: string[];
}

export interface PostView extends PostSummary {
  html: string;
}

export const POSTS_PAGE_SIZE = 10;

export interface PostListQuery {
  query?: string;
  tag?: string;
  /** YYYY-MM */
  month?: string;
  page: number;
}

export interface PostListData {
  query: PostListQuery;
  posts: PostSummary[];
  total: number;
  page: number;
  pageCount: number;
}

/** `/month/{month}` takes YYYY-MM with a real month; anything else is a 404. */
export const isMonth = (value: string) => /^\d{4}-(0[1-9]|1[0-2])$/.test(value);

/** Tags in URLs: lower-case words and hyphens. */
export const isTag = (value: string) => /^[a-z0-9][a-z0-9-]{0,39}$/.test(value);

/** Post slugs: lower-case path segments. */
export const isPostSlug = (value: string) => /^[a-z0-9][a-z0-9-]{0,79}(\/[a-z0-9][a-z0-9-]{0,79}){0,4}$/.test(value);

/** Page slugs: one lower-case segment. */
export const isPageSlug = (value: string) => /^[a-z0-9][a-z0-9-]{0,79}$/.test(value);

export interface MediaEntry {
  outlet: string;
  title: string;
  url: string;
  /** YYYY-MM-DD */
  date: string;
  summary: string;
}

/**
 * What /explore lists, so its HTML stays the same size however large the blog grows: the most used
 * categories and the latest months. The rest stay reachable from the posts themselves, the blog's
 * list and the sitemap.
 */
export const EXPLORE_LIMITS = { tags: 40, months: 24 } as const;

/** /explore: the ways into the blog and the guides. */
export interface ExploreData {
  /** Most used first (then by name). */
  tags: { tag: string; posts: number }[];
  /** Newest first. */
  months: { month: string; posts: number }[];
  /** Categories and months with posts in all: more than listed once the blog outgrows EXPLORE_LIMITS. */
  tagCount: number;
  monthCount: number;
  /** When months are left out: the page of /blog where the posts older than the listed months start. */
  olderPostsPage?: number;
}

/** Site content's section of the page data (src/modules/content/adapters/pages/content.pages.ts). */
export interface ContentPages {
  page(slug: string): Promise<ContentPageView | null>;
  post(slug: string): Promise<PostView | null>;
  posts(query: PostListQuery): Promise<PostListData>;
  media(): Promise<MediaEntry[]>;
  explore(): Promise<ExploreData>;
}

// Adds the section to PageData without editing page-data.ts (declaration merging): see PageData.
declare module './page-data' {
  interface PageData {
    readonly content: ContentPages;
  }
}
