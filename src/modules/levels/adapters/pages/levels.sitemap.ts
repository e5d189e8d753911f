import { Injectable, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { SitemapSources, type SitemapUrl } from 'src/platform/pages/sitemap-sources';
import { LevelsService } from '../../application/levels.service';

/** Every level with a guide in sitemap.xml, with its last change and its walkthrough when real (not a sample). */
@Injectable()
export class LevelsSitemap implements OnModuleInit {
  constructor(
    private readonly levels: LevelsService,
    private readonly sitemap: SitemapSources,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.sitemap.add({ name: 'levels', urls: () => this.urls() });
  }

  private async urls(): Promise<SitemapUrl[]> {
    const { gameName } = this.config.public;
    return (await this.levels.sitemapEntries()).map((level) => ({
      path: `/levels/${level.number}`,
      lastmod: level.updatedAt.toISOString(),
      video:
        level.video && !level.video.sample
          ? {
              thumbnailPath: `/og/levels/${level.number}.png`,
              title: level.video.title,
              description: `${gameName} level ${level.number} walkthrough: ${level.title}`,
              playerUrl: `https://www.youtube-nocookie.com/embed/${level.video.youtubeId}`,
              durationSeconds: level.video.durationSeconds,
            }
          : undefined,
    }));
  }
}
