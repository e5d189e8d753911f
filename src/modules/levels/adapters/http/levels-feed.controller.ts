import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AppConfig } from 'src/config/app-config';
import { ContentDocuments } from 'src/platform/content/content-documents';
import { atomFeed } from 'src/platform/markup/atom-feed';
import { LevelsService } from '../../application/levels.service';

/** The Atom feed of new and updated level guides, a file rather than a page. */
@ApiExcludeController()
@Controller()
export class LevelsFeedController {
  constructor(
    private readonly levels: LevelsService,
    private readonly documents: ContentDocuments,
    private readonly config: AppConfig,
  ) {}

  /** The most recent 50. */
  @Get('levels/feed.xml')
  @Header('content-type', 'application/atom+xml; charset=utf-8')
  @Header('cache-control', 'public, max-age=600')
  feed(): Promise<string> {
    return this.documents.get('levels-feed', () => this.build());
  }

  private async build(): Promise<string> {
    const base = this.config.http.publicUrl;
    const { gameName, siteName } = this.config.public;
    const guides = await this.levels.recentlyUpdated(50);
    return atomFeed({
      id: `${base}/levels`,
      title: `${siteName}: new and updated level guides`,
      self: `${base}/levels/feed.xml`,
      alternate: `${base}/levels`,
      updated: (guides[0]?.updatedAt ?? new Date(0)).toISOString(),
      entries: guides.map((level) => ({
        id: `${base}/levels/${level.number}`,
        title: `Level ${level.number}: ${level.title}`,
        link: `${base}/levels/${level.number}`,
        updated: level.updatedAt.toISOString(),
        summary: `${gameName} level ${level.number} walkthrough: hints, step-by-step solution and video.`,
      })),
    });
  }
}
