import { Injectable, Logger } from '@nestjs/common';
import { POSTS_PAGE_SIZE, type ContentPageView, type PostListData, type PostListQuery, type PostView } from 'src/contracts/content';
import { contentHash } from 'src/platform/content/content-file';
import { MarkdownRenderer } from 'src/platform/content/markdown-renderer.port';
import type { BlogPost } from '../domain/content';
import { SiteContentRepository, type SiteImportSummary } from '../domain/site-content-repository.port';
import { SiteContentSource } from '../domain/site-content-source.port';
import { parseMediaFile, parsePageFile, parsePostFile } from './content-files';

const toPostView = (post: BlogPost): PostView => ({
  slug: post.slug,
  title: post.title,
  description: post.description,
  publishedAt: post.publishedAt.toISOString(),
  tags: post.tags,
  html: post.html,
});

/** Blog posts and content pages: import from content/, and the read side for pages and feeds. */
@Injectable()
export class SiteContentService {
  private readonly logger = new Logger('ContentImport');
  private readonly listeners: (() => void)[] = [];

  constructor(
    private readonly source: SiteContentSource,
    private readonly markdown: MarkdownRenderer,
    private readonly content: SiteContentRepository,
  ) {}

  onImported(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Parses every file first: one malformed file stops the import before anything is written. */
  async importAll(now = new Date()): Promise<SiteImportSummary> {
    const files = await this.files();
    const pages = files.pages.map((file) => parsePageFile(file, this.markdown));
    const posts = files.posts.map((file) => parsePostFile(file, this.markdown));
    const media = files.media ? parseMediaFile(files.media) : [];
    const summary = await this.content.replaceAll(pages, posts, media, contentHash(files.all), now);
    const changed = [summary.pages, summary.posts].some((s) => s.created || s.updated || s.unpublished);
    if (changed) this.listeners.forEach((listener) => listener());
    return summary;
  }

  async importIfChanged(): Promise<SiteImportSummary | 'unchanged'> {
    if ((await this.content.lastContentHash()) === contentHash((await this.files()).all)) return 'unchanged';
    const summary = await this.importAll();
    this.logger.log(
      `Imported pages (${summary.pages.created} new, ${summary.pages.updated} updated, ${summary.pages.unpublished} unpublished) and posts (${summary.posts.created} new, ${summary.posts.updated} updated, ${summary.posts.unpublished} unpublished)`,
    );
    return summary;
  }

  private async files() {
    const [pages, posts, media] = await Promise.all([this.source.pageFiles(), this.source.postFiles(), this.source.mediaFile()]);
    return { pages, posts, media, all: [...pages, ...posts, ...(media ? [media] : [])] };
  }

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

  publishedPages() {
    return this.content.publishedPages();
  }

  async latestPosts(limit: number): Promise<PostView[]> {
    return (await this.content.latestPosts(limit)).map(toPostView);
  }
}
