import { Injectable, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyAdapter } from '@nestjs/platform-fastify';
import { BullBoardQueueDashboard } from 'src/modules/ops/ops.module';
import { MetricsService } from 'src/platform/metrics/metrics.service';
import { PageMatcher } from './page-matcher';
import { PageService } from './page.service';

/**
 * What the pages add to the HTTP server, installed as the module starts: the page cache's fast path
 * (the adapter's first onRequest hook, before Nest's middleware and routing), the metrics label of
 * page requests, and the queue dashboard, whose visitors other than admins get the site's 404 page.
 */
@Injectable()
export class SsrHttpHooks implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly pages: PageService,
    private readonly matcher: PageMatcher,
    private readonly metrics: MetricsService,
    private readonly queueDashboard: BullBoardQueueDashboard,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter as FastifyAdapter;
    adapter.setOnRequestHook((request, reply, done) => {
      if (!this.pages.serveFromCache(request, reply)) done();
    });
    this.metrics.labelPages((request) => this.matcher.label(request));
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
