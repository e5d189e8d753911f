import { Module } from '@nestjs/common';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { MarkdownRenderer } from 'src/platform/content/markdown-renderer.port';
import { ContentImportModule } from 'src/platform/content/content-import.module';
import { MarkdownItRenderer } from 'src/platform/content/markdown-it-renderer.adapter';
import { BlogPostSchema, ContentPageSchema } from './adapters/persistence/content.entities';
import { MikroOrmSiteContentRepository } from './adapters/persistence/mikro-orm-site-content-repository.adapter';
import { SiteContentKind } from './application/site-content.kind';
import { SiteContentService } from './application/site-content.service';
import { SiteContentRepository } from './domain/site-content-repository.port';

/** The blog and the content pages (legal pages, FAQ, ...), imported from Markdown like the guides. */
@Module({
  imports: [MikroOrmModule.forFeature([ContentPageSchema, BlogPostSchema]), ContentImportModule],
  providers: [
    SiteContentService,
    SiteContentKind,
    { provide: SiteContentRepository, useClass: MikroOrmSiteContentRepository },
    { provide: MarkdownRenderer, useClass: MarkdownItRenderer },
  ],
  exports: [SiteContentService],
})
export class ContentModule {}
