import { Injectable } from '@nestjs/common';
import { POSTS_PAGE_SIZE, type ContentPageView, type PostListData, type PostListQuery, type PostView } from 'src/contracts/content';
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

  explore() {
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

  async latestPosts(limit: number): Promise<PostView[]> {
    return (await this.content.latestPosts(limit)).map(toPostView);
  }
}
