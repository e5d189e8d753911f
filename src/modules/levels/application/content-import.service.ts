import { Injectable, Logger } from '@nestjs/common';
import { ContentFileError, contentHash } from 'src/platform/content/content-file';
import { MarkdownRenderer } from 'src/platform/content/markdown-renderer.port';
import { LevelContentSource } from '../domain/level-content-source.port';
import { LevelRepository, type ImportSummary } from '../domain/level-repository.port';
import { parseLevelFile } from './parse-level-file';

/** Imports content/levels/*.md into PostgreSQL: all or nothing, idempotent. */
@Injectable()
export class ContentImportService {
  private readonly logger = new Logger('ContentImport');
  /** Called after an import that changed something (page caches listen). */
  private readonly listeners: (() => void)[] = [];

  constructor(
    private readonly source: LevelContentSource,
    private readonly markdown: MarkdownRenderer,
    private readonly levels: LevelRepository,
  ) {}

  onImported(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Parses every file first: one malformed file stops the import before anything is written. */
  async importLevels(now = new Date()): Promise<ImportSummary> {
    const files = await this.source.levelFiles();
    const guides = files.map((file) => parseLevelFile(file, this.markdown));
    const seen = new Map<number, string>();
    for (const [i, guide] of guides.entries()) {
      const other = seen.get(guide.number);
      if (other) throw new ContentFileError(files[i]!.name, 'level', `${guide.number} is also in ${other}`);
      seen.set(guide.number, files[i]!.name);
    }
    const summary = await this.levels.replaceAll(guides, contentHash(files), now);
    if (summary.created || summary.updated || summary.unpublished) this.listeners.forEach((listener) => listener());
    return summary;
  }

  /** At start: imports only when the files differ from the last import. */
  async importIfChanged(): Promise<ImportSummary | 'unchanged'> {
    const files = await this.source.levelFiles();
    if ((await this.levels.lastContentHash()) === contentHash(files)) return 'unchanged';
    const summary = await this.importLevels();
    this.logger.log(
      `Imported level guides: ${summary.created} new, ${summary.updated} updated, ${summary.unpublished} unpublished, ${summary.unchanged} unchanged`,
    );
    return summary;
  }
}
