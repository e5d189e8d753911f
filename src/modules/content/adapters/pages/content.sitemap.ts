import { Injectable, type OnModuleInit } from '@nestjs/common';
import { SitemapSources, type SitemapUrl } from 'src/platform/pages/sitemap-sources';
import { SiteContentService } from '../../application/site-content.service';

/** Every category and month with posts, every post and every content page in sitemap.xml. */
@Injectable()
export class ContentSitemap implements OnModuleInit {
  constructor(
    private readonly content: SiteContentService,
    private readonly sitemap: SitemapSources,
  ) {}

  onModuleInit(): void {
    this.sitemap.add({ name: 'content', urls: () => this.urls() });
  }

  private async urls(): Promise<SitemapUrl[]> {
    const [archive, posts, pages] = await Promise.all([this.content.archive(), this.content.postSitemapEntries(), this.content.publishedPages()]);
    return [
      ...archive.tags.map((entry) => ({ path: `/category/${encodeURIComponent(entry.tag)}` })),
      ...archive.months.map((entry) => ({ path: `/month/${entry.month}` })),
      ...posts.map((post) => ({ path: `/blog/${post.slug}`, lastmod: post.publishedAt.toISOString() })),
      ...pages.map((page) => ({ path: `/${page.slug}`, lastmod: page.updatedOn })),
    ];
  }
}
