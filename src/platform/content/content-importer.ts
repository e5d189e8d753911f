import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import { AppConfig } from 'src/config/app-config';
import { contentHash, type ContentFile } from './content-file';
import { ContentChangeFeed } from './content-change-feed.port';
import { ContentImportLog } from './content-import-log.port';
import { ContentReader, type ContentSource } from './content-reader.port';

/**
 * A kind of content a module imports from content/ (the level guides; the pages, posts and media
 * list). Registered with the ContentImporter, which reads, hashes, runs and logs it.
 */
export interface ContentKind<Parsed = unknown, Summary = unknown> {
  /** Its row in content_imports ('levels', 'site'). */
  name: string;
  /** How the logs name it: 'Level guides'. */
  title: string;
  sources: readonly ContentSource[];
  /** Changes when the kind imports the same files differently (a guide picture's copies): the next start imports again. */
  version?: string;
  /** Every file parsed before anything is written: the first problem throws a ContentFileError. */
  parse(files: ContentFile[]): Parsed;
  /** Makes the published content exactly `parsed`, recording `contentHash`, in one transaction. */
  sync(parsed: Parsed, contentHash: string, now: Date): Promise<Summary>;
  /** Whether pages show something else now (the page caches are cleared). */
  changed(summary: Summary): boolean;
  /** The log line of an import at start. */
  describe(summary: Summary): string;
}

/**
 * The one content import: modules register their kind from onModuleInit; at start (when
 * CONTENT_IMPORT_ON_START) each kind whose files changed since its last import is imported, in
 * a unit of work of its own. Imports are all or nothing: a malformed file is logged, and the site
 * keeps serving what it has. Subscribers (the page cache) hear of every import that changed pages,
 * in this process at once and, through the ContentChangeFeed, in every other process (the CLI's
 * import reaches the web processes within a second, not after the cache's lifetime).
 */
@Injectable()
export class ContentImporter implements OnApplicationBootstrap {
  private readonly logger = new Logger('ContentImport');
  private readonly kinds = new Map<string, ContentKind>();
  private readonly listeners: (() => void)[] = [];

  constructor(
    private readonly reader: ContentReader,
    private readonly log: ContentImportLog,
    private readonly orm: MikroORM,
    private readonly config: AppConfig,
    private readonly feed: ContentChangeFeed,
  ) {}

  register<P, S>(kind: ContentKind<P, S>): void {
    if (this.kinds.has(kind.name)) throw new Error(`A content kind ${kind.name} is already registered`);
    this.kinds.set(kind.name, kind as unknown as ContentKind);
  }

  onImported(listener: () => void): void {
    this.listeners.push(listener);
    this.feed.subscribe(() => listener());
  }

  /** Imports a kind now, changed or not. */
  async import<S = unknown>(name: string, now = new Date()): Promise<S> {
    const kind = this.kind(name);
    const files = await this.reader.read(kind.sources);
    const parsed = kind.parse(files);
    const summary = await kind.sync(parsed, this.hash(kind, files), now);
    if (kind.changed(summary)) {
      this.listeners.forEach((listener) => listener());
      // The import is committed; if telling the others fails, their cache's lifetime still bounds it.
      await this.feed.publish(kind.name).catch((error: unknown) => this.logger.warn(`Other processes not told of the ${kind.name} import (${(error as Error).message}): their pages follow within the cache's lifetime`));
    }
    return summary as S;
  }

  /** Imports a kind only when its files differ from its last import, and logs what changed and how long it took. */
  async importIfChanged<S = unknown>(name: string): Promise<S | 'unchanged'> {
    const kind = this.kind(name);
    const started = performance.now();
    if ((await this.log.lastHash(name)) === this.hash(kind, await this.reader.read(kind.sources))) return 'unchanged';
    const summary = await this.import<S>(name);
    // The whole import (reading, parsing, writing): what a large catalogue adds to a start.
    this.logger.log(`${kind.describe(summary)} in ${((performance.now() - started) / 1000).toFixed(2)} s`);
    return summary;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.content.importOnStart) return;
    for (const kind of this.kinds.values()) {
      try {
        await RequestContext.create(this.orm.em, () => this.importIfChanged(kind.name));
      } catch (error) {
        this.logger.error(`${kind.title} not imported: ${(error as Error).message}`);
      }
    }
  }

  private hash(kind: ContentKind, files: ContentFile[]): string {
    return contentHash(kind.version ? [...files, { name: '(version)', text: kind.version }] : files);
  }

  private kind(name: string): ContentKind {
    const kind = this.kinds.get(name);
    if (!kind) throw new Error(`No content kind ${name} is registered`);
    return kind;
  }
}
