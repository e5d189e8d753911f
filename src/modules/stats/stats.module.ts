import { Module } from '@nestjs/common';
import { ContentModule } from 'src/modules/content/content.module';
import { LevelsModule } from 'src/modules/levels/levels.module';
import { PagesModule } from 'src/platform/pages/pages.module';
import { StatsPageData } from './adapters/pages/stats.pages';
import { StatsService } from './application/stats.service';

/** The site's numbers (guides, posts) for the admins. No domain, ports or tables: it reads other modules' services. */
@Module({
  imports: [LevelsModule, ContentModule, PagesModule],
  providers: [StatsService, StatsPageData],
})
export class StatsModule {}
