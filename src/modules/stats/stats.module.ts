import { Module } from '@nestjs/common';
import { ContentModule } from 'src/modules/content/content.module';
import { LevelsModule } from 'src/modules/levels/levels.module';
import { StatsService } from './application/stats.service';

/** The site's numbers (guides, posts) for the admins. No domain, ports or tables: it reads other modules' services. */
@Module({
  imports: [LevelsModule, ContentModule],
  providers: [StatsService],
})
export class StatsModule {}
