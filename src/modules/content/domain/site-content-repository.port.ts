import type { ExploreData, MediaEntry, PostListQuery, PostSummary } from 'src/contracts/content';
import type { RankedHits, SearchTerms } from 'src/contracts/search';
import type { BlogPost, ContentPage, PageFile, PostFile } from './content';

export interface SiteImportSummary {
  pages: { created: number; updated: number; unchanged: number; unpublished: number };
  posts: { created: number; updated: number; unchanged: number; unpublished: number };
}

export abstract class SiteContentRepository {
  abstract page(slug: string): Promise<ContentPage | null>;
  abstract post(slug: string): Promise<BlogPost | null>;
  abstract posts(query: PostListQuery, pageSize: number): Promise<{ posts: PostSummary[]; total: number }>;
  /** Published posts (pages) matching the terms, best first, at most `limit`. */
  abstract searchPosts(terms: SearchTerms, limit: number): Promise<RankedHits<{ slug: string; publishedAt: string }>>;
  abstract searchPages(terms: SearchTerms, limit: number): Promise<RankedHits<{ slug: string }>>;
  /** Published posts, newest first, for feeds. */
  abstract latestPosts(limit: number): Promise<BlogPost[]>;
  /** Every published post's address and date, newest first: the sitemap (no bodies). */
  abstract postSitemapEntries(): Promise<{ slug: string; publishedAt: Date }[]>;
  abstract publishedPages(): Promise<{ slug: string; updatedOn: string }[]>;
  abstract media(): Promise<MediaEntry[]>;
  /** Categories (most used first) and months (newest first) with posts, at most `limits` of each (all without), with their counts. */
  abstract explore(limits?: { tags: number; months: number }): Promise<Omit<ExploreData, 'olderPostsPage'>>;
  /** Makes the published pages and posts exactly these, in one transaction. */
  abstract replaceAll(pages: PageFile[], posts: PostFile[], media: MediaEntry[], contentHash: string, now: Date): Promise<SiteImportSummary>;
}
