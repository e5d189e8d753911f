import { Injectable, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyAdapter } from '@nestjs/platform-fastify';
import { AppConfig } from 'src/config/app-config';
import { GuideViews } from 'src/modules/guide-insights';
import { BullBoardQueueDashboard } from 'src/modules/ops';
import { MetricsService } from 'src/platform/metrics/metrics.service';
import { guideViewOf } from './guide-page-views';
import { PageMatcher } from './page-matcher';
import { PageService } from './page.service';

/**
 * What the pages add to the HTTP server, installed as the module starts: the page cache's fast path
 * (the adapter's first onRequest hook, before Nest's middleware and routing), the metrics label of
 * page requests, the count of guide page views (an onResponse hook: a map update in memory, the
 * writes are GuideViews' flush), and the queue dashboard, whose visitors other than admins get the
 * site's 404 page.
 */
@Injectable()
export class SsrHttpHooks implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly pages: PageService,
    private readonly matcher: PageMatcher,
    private readonly metrics: MetricsService,
    private readonly queueDashboard: BullBoardQueueDashboard,
    private readonly views: GuideViews,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter as FastifyAdapter;
    adapter.setOnRequestHook((request, reply, done) => {
      if (!this.pages.serveFromCache(request, reply)) done();
    });
    this.metrics.labelPages((request) => this.matcher.label(request));
    const searchMax = this.config.public.levels.searchMax;
    // After the response, fast-path hits included: the request's match was kept, nothing is matched again.
    adapter.getInstance().addHook('onResponse', (request, reply, done) => {
      const level = guideViewOf(request, reply.statusCode, this.matcher.matched(request), searchMax);
      if (level !== null) this.views.count(level);
      done();
    });
    this.matcher.preload();
  }

  /**
   * Mounted once Nest has set its error and not-found handlers: loading a Fastify plugin settles the
   * routes registered so far, and a route settled earlier would keep Fastify's own error answers.
   */
  async onApplicationBootstrap(): Promise<void> {
    const adapter = this.adapterHost.httpAdapter as FastifyAdapter;
    await this.queueDashboard.register(adapter.getInstance(), (request, reply) => this.pages.serve(request, reply));
  }
}
