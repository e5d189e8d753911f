import { Module } from '@nestjs/common';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { MarkdownRenderer } from 'src/platform/content/markdown-renderer.port';
import { ContentImportModule } from 'src/platform/content/content-import.module';
import { MarkdownItRenderer } from 'src/platform/content/markdown-it-renderer.adapter';
import { PagesModule } from 'src/platform/pages/pages.module';
import { BlogFeedController } from './adapters/http/blog-feed.controller';
import { ContentPageData } from './adapters/pages/content.pages';
import { ContentSitemap } from './adapters/pages/content.sitemap';
import { BlogPostSchema, ContentPageSchema } from './adapters/persistence/content.entities';
import { MikroOrmSiteContentRepository } from './adapters/persistence/mikro-orm-site-content-repository.adapter';
import { SiteContentKind } from './application/site-content.kind';
import { SiteContentService } from './application/site-content.service';
import { SiteContentRepository } from './domain/site-content-repository.port';

/** The blog and the content pages (legal pages, FAQ, ...), imported from Markdown like the guides: their page data section, sitemap entries and the blog's feed. */
@Module({
  imports: [MikroOrmModule.forFeature([ContentPageSchema, BlogPostSchema]), ContentImportModule, PagesModule],
  controllers: [BlogFeedController],
  providers: [
    SiteContentService,
    SiteContentKind,
    ContentPageData,
    ContentSitemap,
    { provide: SiteContentRepository, useClass: MikroOrmSiteContentRepository },
    { provide: MarkdownRenderer, useClass: MarkdownItRenderer },
  ],
  exports: [SiteContentService],
})
export class ContentModule {}
