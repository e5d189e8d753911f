import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { MediaEntry } from 'src/contracts/content';
import type { ContentFile } from 'src/platform/content/content-file';
import { MarkdownRenderer } from 'src/platform/content/markdown-renderer.port';
import { ContentImporter, type ContentKind } from 'src/platform/content/content-importer';
import type { PageFile, PostFile } from '../domain/content';
import { SiteContentRepository, type SiteImportSummary } from '../domain/site-content-repository.port';
import { parseMediaFile, parsePageFile, parsePostFile } from './content-files';

interface SiteFiles {
  pages: PageFile[];
  posts: PostFile[];
  media: MediaEntry[];
}

/** content/pages/*.md, content/blog/**.md and content/media.yaml, imported together by the ContentImporter. */
@Injectable()
export class SiteContentKind implements ContentKind<SiteFiles, SiteImportSummary>, OnModuleInit {
  readonly name = 'site';
  readonly title = 'Pages and posts';
  // In this order: the content hash of the last import covers the files in it.
  readonly sources = [{ folder: 'pages' }, { folder: 'blog', recursive: true }, { file: 'media.yaml' }];

  constructor(
    private readonly importer: ContentImporter,
    private readonly markdown: MarkdownRenderer,
    private readonly content: SiteContentRepository,
  ) {}

  onModuleInit(): void {
    this.importer.register(this);
  }

  parse(files: ContentFile[]): SiteFiles {
    const media = files.find((file) => file.name === 'media.yaml');
    return {
      pages: files.filter((file) => file.name.startsWith('pages/')).map((file) => parsePageFile(file, this.markdown)),
      posts: files.filter((file) => file.name.startsWith('blog/')).map((file) => parsePostFile(file, this.markdown)),
      media: media ? parseMediaFile(media) : [],
    };
  }

  sync({ pages, posts, media }: SiteFiles, contentHash: string, now: Date): Promise<SiteImportSummary> {
    return this.content.replaceAll(pages, posts, media, contentHash, now);
  }

  changed(summary: SiteImportSummary): boolean {
    return [summary.pages, summary.posts].some((s) => s.created || s.updated || s.unpublished);
  }

  describe({ pages, posts }: SiteImportSummary): string {
    return `Imported pages (${pages.created} new, ${pages.updated} updated, ${pages.unpublished} unpublished) and posts (${posts.created} new, ${posts.updated} updated, ${posts.unpublished} unpublished)`;
  }
}
