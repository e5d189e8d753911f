import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { StatsPages } from 'src/contracts/stats';
import { PageSections } from 'src/platform/pages/page-sections';
import { StatsService } from '../../application/stats.service';

/** Stats' section of the page data: what /admin/stats' loader reads. */
@Injectable()
export class StatsPageData implements StatsPages, OnModuleInit {
  constructor(
    private readonly stats: StatsService,
    private readonly sections: PageSections,
  ) {}

  onModuleInit(): void {
    this.sections.add('stats', this);
  }

  overview() {
    return this.stats.overview();
  }
}
