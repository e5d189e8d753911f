import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyAdapter } from '@nestjs/platform-fastify';
import { MetricsService } from 'src/platform/metrics/metrics.service';
import { PageViews } from 'src/platform/pages/page-views';
import { SitePages } from 'src/platform/pages/site-pages';
import { PageMatcher } from './page-matcher';
import { pageViewOf } from './page-view';
import { PageService } from './page.service';

/**
 * What the pages add to the HTTP server, installed as the module starts: the page cache's fast path
 * (the adapter's first onRequest hook, before Nest's middleware and routing), the metrics label of
 * page requests, the page views modules listen for (an onResponse hook telling PageViews, whose
 * listeners only count in memory), and the site's answer for routes mounted outside the pages
 * (SitePages: ops' queue dashboard shows everyone but admins the 404 page).
 */
@Injectable()
export class SsrHttpHooks implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly pages: PageService,
    private readonly matcher: PageMatcher,
    private readonly metrics: MetricsService,
    private readonly views: PageViews,
    private readonly sitePages: SitePages,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter as FastifyAdapter;
    adapter.setOnRequestHook((request, reply, done) => {
      if (!this.pages.serveFromCache(request, reply)) done();
    });
    this.metrics.labelPages((request) => this.matcher.label(request));
    const watched = (routeId: string) => this.views.watched(routeId);
    // After the response, fast-path hits included: the request's match was kept, nothing is matched again.
    adapter.getInstance().addHook('onResponse', (request, reply, done) => {
      const view = pageViewOf(request, reply.statusCode, this.matcher.matched(request), watched);
      if (view) this.views.viewed(view.route.id, view.params);
      done();
    });
    this.sitePages.answerWith((request, reply) => this.pages.serve(request, reply));
    this.matcher.preload();
  }
}
