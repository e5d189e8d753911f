import { Injectable } from '@nestjs/common';
import { EXPLORE_LIMITS, POSTS_PAGE_SIZE, type ContentPageView, type ExploreData, type PostListData, type PostListQuery, type PostView } from 'src/contracts/content';
import { SEARCH_LIMITS, type SearchTerms } from 'src/contracts/search';
import type { BlogPost } from '../domain/content';
import { SiteContentRepository } from '../domain/site-content-repository.port';

const toPostView = (post: BlogPost): PostView => ({
  slug: post.slug,
  title: post.title,
  description: post.description,
  publishedAt: post.publishedAt.toISOString(),
  tags: post.tags,
  html: post.html,
});

/** Blog posts and content pages: the read side for pages and feeds (SiteContentKind imports them). */
@Injectable()
export class SiteContentService {
  constructor(private readonly content: SiteContentRepository) {}

  media() {
    return this.content.media();
  }

  /**
   * /explore: the most used categories and the latest months (EXPLORE_LIMITS), and when older months
   * are left out, the page of the blog's list where their posts start.
   */
  async explore(): Promise<ExploreData> {
    const data = await this.content.explore(EXPLORE_LIMITS);
    if (data.monthCount <= data.months.length) return data;
    const listed = data.months.reduce((sum, month) => sum + month.posts, 0);
    return { ...data, olderPostsPage: Math.floor(listed / POSTS_PAGE_SIZE) + 1 };
  }

  /** Every category and month with posts: the sitemap lists them all. */
  archive() {
    return this.content.explore();
  }

  async page(slug: string): Promise<ContentPageView | null> {
    const page = await this.content.page(slug);
    return page && { slug: page.slug, title: page.title, description: page.description, html: page.html, updatedOn: page.updatedOn };
  }

  async post(slug: string): Promise<PostView | null> {
    const post = await this.content.post(slug);
    return post && toPostView(post);
  }

  async posts(query: PostListQuery): Promise<PostListData> {
    const { posts, total } = await this.content.posts(query, POSTS_PAGE_SIZE);
    return { query, posts, total, page: query.page, pageCount: Math.max(1, Math.ceil(total / POSTS_PAGE_SIZE)) };
  }

  /** The posts and pages of one search (the search module ranks them with the guides). */
  async search(terms: SearchTerms) {
    const [posts, pages] = await Promise.all([this.content.searchPosts(terms, SEARCH_LIMITS.posts), this.content.searchPages(terms, SEARCH_LIMITS.pages)]);
    return { posts, pages };
  }

  publishedPages() {
    return this.content.publishedPages();
  }

  /** Every published post's address and date, newest first (the sitemap). */
  postSitemapEntries() {
    return this.content.postSitemapEntries();
  }

  async latestPosts(limit: number): Promise<PostView[]> {
    return (await this.content.latestPosts(limit)).map(toPostView);
  }
}
