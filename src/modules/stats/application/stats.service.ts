import { Injectable } from '@nestjs/common';
import type { SiteStats } from 'src/contracts/stats';
import { SiteContentService } from 'src/modules/content';
import { LevelsService } from 'src/modules/levels';

/** The site's numbers, read from the modules that own the guides and the posts. */
@Injectable()
export class StatsService {
  constructor(
    private readonly levels: LevelsService,
    private readonly content: SiteContentService,
  ) {}

  async overview(): Promise<SiteStats> {
    const [levels, posts] = await Promise.all([this.levels.list({ query: undefined, page: 1 }), this.content.posts({ page: 1 })]);
    return { guides: levels.counts, posts: posts.total };
  }
}
