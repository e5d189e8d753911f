import { Module } from '@nestjs/common';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { AppConfig } from 'src/config/app-config';
import { MarkdownRenderer } from 'src/platform/content/markdown-renderer.port';
import { ContentImportSchema } from 'src/platform/content/content-import.entity';
import { MarkdownItRenderer } from 'src/platform/content/markdown-it-renderer.adapter';
import { FileSiteContentSource } from './adapters/files/file-site-content-source.adapter';
import { SiteContentImportBootstrap } from './adapters/files/site-content-import.bootstrap';
import { BlogPostSchema, ContentPageSchema } from './adapters/persistence/content.entities';
import { MikroOrmSiteContentRepository } from './adapters/persistence/mikro-orm-site-content-repository.adapter';
import { SiteContentService } from './application/site-content.service';
import { SiteContentRepository } from './domain/site-content-repository.port';
import { SiteContentSource } from './domain/site-content-source.port';

/** The blog and the content pages (legal pages, FAQ, ...), imported from Markdown like the guides. */
@Module({
  imports: [MikroOrmModule.forFeature([ContentPageSchema, BlogPostSchema, ContentImportSchema])],
  providers: [
    SiteContentService,
    SiteContentImportBootstrap,
    { provide: SiteContentRepository, useClass: MikroOrmSiteContentRepository },
    { provide: MarkdownRenderer, useClass: MarkdownItRenderer },
    { provide: SiteContentSource, inject: [AppConfig], useFactory: (c: AppConfig) => new FileSiteContentSource(c.content.dir) },
  ],
  exports: [SiteContentService],
})
export class ContentModule {}
