import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import type { PageData } from 'src/contracts/page-data';
import { PageSections } from 'src/platform/pages/page-sections';
import { ServerEntrySource } from './server-entry-source.port';

/**
 * The page data loaders get (src/contracts/page-data.ts), direct calls with no HTTP hop: the site's
 * rules (public config, redirects) and the section each module added to PageSections, composed once
 * every module has started. The start fails while a route of the build reads a section no loaded
 * module added (PageSections.check), rather than that page failing at its first request.
 */
@Injectable()
export class SitePageData implements OnApplicationBootstrap {
  private composed?: PageData;

  constructor(
    private readonly config: AppConfig,
    private readonly sections: PageSections,
    private readonly source: ServerEntrySource,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.composed = this.sections.compose({ config: this.config.public, redirects: this.config.redirects });
    // A server entry that does not load is the first page request's error, as before (in development, fixed on the next).
    const entry = await this.source.entry().catch(() => undefined);
    if (entry) this.sections.check(entry.pageSections());
  }

  get data(): PageData {
    if (!this.composed) throw new Error('The page data is composed as the application starts (onApplicationBootstrap)');
    return this.composed;
  }
}
