import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { GuideInsightsPages, GuideInsightsQuery } from 'src/contracts/guide-insights';
import { PageSections } from 'src/platform/pages/page-sections';
import { GuideInsightsService } from '../../application/guide-insights.service';

/** Guide insights' section of the page data: /admin/guides (admins only). */
@Injectable()
export class GuideInsightsPageData implements GuideInsightsPages, OnModuleInit {
  constructor(
    private readonly insights: GuideInsightsService,
    private readonly sections: PageSections,
  ) {}

  onModuleInit(): void {
    this.sections.add('guideInsights', this);
  }

  overview(query: GuideInsightsQuery) {
    return this.insights.overview(query);
  }
}
