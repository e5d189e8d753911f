import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { MikroORM } from '@mikro-orm/core';
import { AppConfig } from 'src/config/app-config';
import { importAtStart } from 'src/platform/content/import-at-start';
import { SiteContentService } from '../../application/site-content.service';

/** Imports pages and posts at start when they changed since the last import. */
@Injectable()
export class SiteContentImportBootstrap implements OnApplicationBootstrap {
  constructor(
    private readonly content: SiteContentService,
    private readonly orm: MikroORM,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.content.importOnStart) await importAtStart('Pages and posts', this.orm, () => this.content.importIfChanged());
  }
}
