import { Injectable, type OnModuleInit } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { parseLevelId } from 'src/contracts/levels';
import { PageViews } from 'src/platform/pages/page-views';
import { GuideViews } from '../../application/guide-views.service';

/** The route of a level's guide page (`level` in web/features/levels/levels.routes.ts). */
export const GUIDE_ROUTE_ID = 'level';

/**
 * Counts a view of a guide page each time the SSR bridge says a reader was shown one (which
 * responses are views: src/ssr/page-view.ts). The number is the route's `id` parameter, valid as
 * the page itself takes it; a number in range with no guide is counted here and dropped when the
 * counts are written.
 */
@Injectable()
export class GuidePageViews implements OnModuleInit {
  constructor(
    private readonly views: GuideViews,
    private readonly pageViews: PageViews,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const searchMax = this.config.public.levels.searchMax;
    this.pageViews.on(GUIDE_ROUTE_ID, (params) => {
      const level = parseLevelId(params.id ?? '', searchMax);
      if (level !== null) this.views.count(level);
    });
  }
}
