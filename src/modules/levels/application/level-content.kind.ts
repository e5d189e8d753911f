import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ContentFileError, formatFault, type ContentFile } from 'src/platform/content/content-file';
import { MarkdownRenderer } from 'src/platform/content/markdown-renderer.port';
import { ContentImporter, type ContentKind } from 'src/platform/content/content-importer';
import { GuidePictureStore, PictureEncoder } from '../domain/guide-picture.port';
import { LevelRepository, type ImportSummary } from '../domain/level-repository.port';
import { PICTURE_SETTINGS } from './check-level-file';
import { checkLevelFiles, type CheckedLevelFiles } from './check-level-files';

/** Where the guides and their pictures are read from: the guide files, and PNG and JPEG files in the folder and below. */
export const LEVEL_SOURCES = [{ folder: 'levels', assets: ['png', 'jpg', 'jpeg'] }] as const;

/**
 * content/levels/*.md and their pictures, imported into PostgreSQL by the ContentImporter: every
 * file passes every check (the same as `npm run content:check`) or nothing is imported; the
 * pictures' copies are made before the guides are written, so no guide names a missing one.
 */
@Injectable()
export class LevelContentKind implements ContentKind<CheckedLevelFiles, ImportSummary>, OnModuleInit {
  readonly name = 'levels';
  readonly title = 'Level guides';
  readonly sources = LEVEL_SOURCES;
  readonly version = `pictures ${PICTURE_SETTINGS}`;
  private readonly logger = new Logger('ContentImport');

  constructor(
    private readonly importer: ContentImporter,
    private readonly markdown: MarkdownRenderer,
    private readonly levels: LevelRepository,
    private readonly pictures: GuidePictureStore,
    private readonly encoder: PictureEncoder,
  ) {}

  onModuleInit(): void {
    this.importer.register(this);
  }

  parse(files: ContentFile[]): CheckedLevelFiles {
    const checked = checkLevelFiles(files, this.markdown);
    const [first, ...more] = checked.faults;
    if (first) {
      if (more.length) this.logger.warn(more.map(({ file, fault }) => formatFault(file, fault)).join('\n'));
      const rest = more.length ? ` (and ${more.length} more: npm run content:check lists them)` : '';
      throw new ContentFileError(first.file, first.fault.field, `${first.fault.problem}${rest}`);
    }
    return checked;
  }

  async sync(checked: CheckedLevelFiles, contentHash: string, now: Date): Promise<ImportSummary> {
    const missing = new Set(await this.pictures.missing(checked.pictures.map((picture) => picture.hash)));
    for (const picture of checked.pictures) {
      if (missing.has(picture.hash)) await this.pictures.save(await this.encoder.encode(picture));
    }
    const summary = await this.levels.replaceAll(checked.guides, contentHash, now);
    await this.pictures.keepOnly(checked.pictures.map((picture) => picture.hash));
    return summary;
  }

  changed(summary: ImportSummary): boolean {
    return summary.created + summary.updated + summary.unpublished > 0;
  }

  describe(summary: ImportSummary): string {
    return `Imported level guides: ${summary.created} new, ${summary.updated} updated, ${summary.unpublished} unpublished, ${summary.unchanged} unchanged`;
  }
}
