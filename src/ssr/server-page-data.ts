import { Injectable } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import type { PageData } from 'src/contracts/page-data';
import { AdminOrdersService, CheckoutService, OrderNotFoundError } from 'src/modules/billing';
import { SiteContentService } from 'src/modules/content';
import { GuideInsightsService } from 'src/modules/guide-insights';
import { GuideReportsService } from 'src/modules/guide-reports';
import { LevelsService } from 'src/modules/levels';
import { OpsService } from 'src/modules/ops';
import { SearchService } from 'src/modules/search';

/** The in-process data client page loaders use on the server: direct calls, no HTTP hop. */
@Injectable()
export class ServerPageData implements PageData {
  readonly levels: PageData['levels'];
  readonly content: PageData['content'];
  readonly billing: PageData['billing'];
  readonly ops: PageData['ops'];
  readonly guideReports: PageData['guideReports'];
  readonly search: PageData['search'];
  readonly guideInsights: PageData['guideInsights'];

  constructor(
    private readonly appConfig: AppConfig,
    levels: LevelsService,
    content: SiteContentService,
    checkout: CheckoutService,
    adminOrders: AdminOrdersService,
    ops: OpsService,
    guideReports: GuideReportsService,
    search: SearchService,
    guideInsights: GuideInsightsService,
  ) {
    this.search = { results: (query) => search.search(query) };
    this.guideReports = { page: (number) => guideReports.pageData(number) };
    this.guideInsights = { overview: (query) => guideInsights.overview(query) };
    const payments = appConfig.public.settings.has_payment;
    this.billing = {
      pricing: () => Promise.resolve(checkout.pricing()),
      adminOrders: (filter, page) => (payments ? adminOrders.listAllOrders(filter, page) : Promise.resolve(null)),
      refusedEvents: (page) => (payments ? adminOrders.refusedEvents(page) : Promise.resolve(null)),
      adminOrder: (id) => (payments ? adminOrders.adminOrder(id).catch((error: unknown) => (error instanceof OrderNotFoundError ? null : Promise.reject(error))) : Promise.resolve(null)),
    };
    this.ops = { errors: (scope) => ops.errorGroups(scope), queues: () => Promise.resolve(ops.queues()), attention: () => ops.attention() };
    this.content = {
      page: (slug) => content.page(slug),
      post: (slug) => content.post(slug),
      posts: (query) => content.posts(query),
      media: () => content.media(),
      explore: () => content.explore(),
    };
    this.levels = {
      page: (number) => levels.levelPage(number),
      list: (query) => levels.list(query),
      hardest: () => levels.hardest(),
      featured: () => levels.featured(),
      guideRanges: () => levels.guideRanges(),
    };
  }

  get config() {
    return this.appConfig.public;
  }

  get redirects() {
    return this.appConfig.redirects;
  }
}
