import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AppConfig } from 'src/config/app-config';
import { ContentDocuments } from 'src/platform/content/content-documents';
import { atomFeed } from 'src/platform/markup/atom-feed';
import { SiteContentService } from '../../application/site-content.service';

/** The Atom feed of the blog, a file rather than a page (linked from the blog's pages). */
@ApiExcludeController()
@Controller()
export class BlogFeedController {
  constructor(
    private readonly content: SiteContentService,
    private readonly documents: ContentDocuments,
    private readonly config: AppConfig,
  ) {}

  /** The newest 30 posts. */
  @Get('blog/feed.xml')
  @Header('content-type', 'application/atom+xml; charset=utf-8')
  @Header('cache-control', 'public, max-age=600')
  feed(): Promise<string> {
    return this.documents.get('blog-feed', () => this.build());
  }

  private async build(): Promise<string> {
    const base = this.config.http.publicUrl;
    const posts = await this.content.latestPosts(30);
    return atomFeed({
      id: `${base}/blog`,
      title: `${this.config.public.siteName} blog`,
      self: `${base}/blog/feed.xml`,
      alternate: `${base}/blog`,
      updated: posts[0]?.publishedAt ?? new Date(0).toISOString(),
      entries: posts.map((post) => ({
        id: `${base}/blog/${post.slug}`,
        title: post.title,
        link: `${base}/blog/${post.slug}`,
        updated: post.publishedAt,
        summary: post.description,
        html: post.html,
      })),
    });
  }
}
