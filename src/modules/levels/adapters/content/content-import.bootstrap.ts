import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/core';
import { AppConfig } from 'src/config/app-config';
import { importAtStart } from 'src/platform/content/import-at-start';
import { ContentImportService } from '../../application/content-import.service';

/** Imports the guides at start when the content changed since the last import. */
@Injectable()
export class ContentImportBootstrap implements OnApplicationBootstrap {
  constructor(
    private readonly importer: ContentImportService,
    private readonly orm: MikroORM,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.content.importOnStart) await importAtStart('Level guides', this.orm, () => this.importer.importIfChanged());
  }
}
