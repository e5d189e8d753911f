import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ContentFileError, type ContentFile } from 'src/platform/content/content-file';
import { MarkdownRenderer } from 'src/platform/content/markdown-renderer.port';
import { ContentImporter, type ContentKind } from 'src/platform/content/content-importer';
import type { LevelGuide } from '../domain/level';
import { LevelRepository, type ImportSummary } from '../domain/level-repository.port';
import { parseLevelFile } from './parse-level-file';

/** content/levels/*.md, imported into PostgreSQL by the ContentImporter: all or nothing, idempotent. */
@Injectable()
export class LevelContentKind implements ContentKind<LevelGuide[], ImportSummary>, OnModuleInit {
  readonly name = 'levels';
  readonly title = 'Level guides';
  readonly sources = [{ folder: 'levels' }];

  constructor(
    private readonly importer: ContentImporter,
    private readonly markdown: MarkdownRenderer,
    private readonly levels: LevelRepository,
  ) {}

  onModuleInit(): void {
    this.importer.register(this);
  }

  parse(files: ContentFile[]): LevelGuide[] {
    const guides = files.map((file) => parseLevelFile(file, this.markdown));
    const seen = new Map<number, string>();
    for (const [i, guide] of guides.entries()) {
      const other = seen.get(guide.number);
      if (other) throw new ContentFileError(files[i]!.name, 'level', `${guide.number} is also in ${other}`);
      seen.set(guide.number, files[i]!.name);
    }
    return guides;
  }

  sync(guides: LevelGuide[], contentHash: string, now: Date): Promise<ImportSummary> {
    return this.levels.replaceAll(guides, contentHash, now);
  }

  changed(summary: ImportSummary): boolean {
    return summary.created + summary.updated + summary.unpublished > 0;
  }

  describe(summary: ImportSummary): string {
    return `Imported level guides: ${summary.created} new, ${summary.updated} updated, ${summary.unpublished} unpublished, ${summary.unchanged} unchanged`;
  }
}
