import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter as BullBoardFastifyAdapter } from '@bull-board/fastify';
import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { Queue } from 'bullmq';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { AppConfig } from 'src/config/app-config';
import { AdminAccess, CrossSiteRequestError, isSiteOrigin } from 'src/modules/auth';
import { toErrorResponse } from 'src/platform/errors/app-error.filter';
import { SitePages } from 'src/platform/pages/site-pages';
import { bullmqPrefix } from 'src/platform/queue/bullmq-job-queue.adapter';
import { QUEUE_NAMES } from 'src/platform/queue/jobs';
import { RedisConnection } from 'src/platform/redis/redis.module';
import { A11Y_SCRIPT, DASHBOARD_A11Y_SCRIPT, dressDashboard } from './bull-board.theme';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** bull-board's page asks Google Fonts for IBM Plex; the site keeps browsers on its own origin, so it falls back to the system font. */
const GOOGLE_FONTS_LINK = /<link [^>]*href="https:\/\/fonts\.googleapis\.com\/[^"]*"[^>]*>/g;

/**
 * The bull-board dashboard of every queue in the job registry (counts, jobs and their details,
 * retry, clean), mounted at /admin/queues when jobs live in Redis. Admins only, by the site's own
 * session: anyone else gets exactly what an unknown path gets (the 404 page for GET, Nest's 404
 * otherwise), for the page, its assets and its API. Its write actions carried by the session
 * cookie must come from the site's origin (CSRF), like every other cookie-authenticated write.
 * Its responses are never stored, and may use inline styles (bull-board sets them); scripts keep
 * the site's policy.
 */
@Injectable()
export class BullBoardQueueDashboard implements OnApplicationBootstrap, OnApplicationShutdown {
  private queues: Queue[] = [];
  /** Whether `queues` were built on a live connection (BullMQ asks the server once, as a queue is built). */
  private live = false;
  private showQueues?: (queues: BullMQAdapter[]) => void;

  constructor(
    private readonly config: AppConfig,
    private readonly redis: RedisConnection,
    private readonly access: AdminAccess,
    private readonly adapterHost: HttpAdapterHost,
    private readonly pages: SitePages,
  ) {}

  /**
   * Mounted on the web app's Fastify instance before it listens, once Nest has set its error and
   * not-found handlers: loading a Fastify plugin settles the routes registered so far, and a route
   * settled earlier would keep Fastify's own error answers. Nothing is mounted in a process without
   * HTTP (the worker), or without Redis: /admin/queues is then a page showing the web process's own queues.
   */
  async onApplicationBootstrap(): Promise<void> {
    const http = this.adapterHost.httpAdapter as { getInstance(): FastifyInstance } | undefined;
    if (!http || !this.redis.client) return;
    await this.register(http.getInstance());
  }

  private async register(fastify: FastifyInstance): Promise<void> {
    const board = new BullBoardFastifyAdapter().setBasePath(QUEUE_DASHBOARD_PATH);
    // The queues come with the first admitted request, once the site's Redis connection is up (see refreshQueues).
    const { replaceQueues } = createBullBoard({
      queues: [],
      serverAdapter: board,
      options: {
        uiConfig: {
          boardTitle: 'Queues',
          miscLinks: [{ text: 'Admin', url: '/admin' }],
          hideDocsLink: true,
        },
      },
    });

    this.showQueues = replaceQueues;
    const admitted = new WeakSet<FastifyRequest>();
    const gate = this.gate.bind(this);
    const refreshQueues = this.refreshQueues.bind(this);
    await fastify.register(
      async (scope: FastifyInstance) => {
        // Every route bull-board adds (page, assets, API) runs behind the gate.
        scope.addHook('onRoute', (route) => {
          const handler = route.handler as RouteHandlerMethod;
          route.handler = async function (this: FastifyInstance, request, reply) {
            if (!(await gate(request, reply))) return reply;
            admitted.add(request);
            refreshQueues();
            // bull-board's static files answer through a callback: wait for the reply instead of undefined.
            const result: unknown = await handler.call(this, request, reply);
            return result === undefined ? reply : result;
          };
        });
        scope.addHook('onSend', async (request, reply, payload) => {
          if (!admitted.has(request)) return payload;
          void reply.header('cache-control', 'no-store');
          const csp = reply.getHeader('content-security-policy');
          if (typeof csp === 'string') {
            // Its styles are inline (as on /api/docs); styles cannot run code, and script-src stays as it is.
            void reply.header('content-security-policy', csp.replace(/style-src [^;]*/, "style-src 'self' 'unsafe-inline'"));
          }
          if (typeof payload !== 'string') return payload;
          const page = payload.replace(GOOGLE_FONTS_LINK, '');
          // The dashboard's page: the site's way back, its theme fixes and its accessibility fixes.
          return page.includes('id="__UI_CONFIG__"') ? dressDashboard(page) : page;
        });
        await scope.register(board.registerPlugin());
        scope.get(`/${A11Y_SCRIPT}`, (_request, reply) => reply.header('content-type', 'text/javascript; charset=utf-8').send(DASHBOARD_A11Y_SCRIPT));
      },
      { prefix: QUEUE_DASHBOARD_PATH },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    // The connection is the site's (RedisConnection closes it); the queues only let go of it.
    await Promise.all(this.queues.map((queue) => queue.close().catch(() => undefined)));
  }

  /**
   * Builds the dashboard's queues on the site's fail-fast Redis connection (commands fail at once
   * while Redis is down rather than hang a request). A BullMQ queue built while that connection is
   * not up stays broken, so they are built on the first request that finds it live.
   */
  private refreshQueues(): void {
    const connection = this.redis.client;
    if (this.live || connection?.status !== 'ready') return;
    this.live = true;
    this.queues = QUEUE_NAMES.map((name) => {
      const queue = new Queue(name, { connection, prefix: bullmqPrefix(this.config) });
      queue.on('error', () => undefined);
      return queue;
    });
    this.showQueues?.(this.queues.map((queue) => new BullMQAdapter(queue, { allowRetries: true })));
  }

  /** True when the request may reach the dashboard; otherwise it has been answered. */
  private async gate(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    if (!(await this.access.isAdmin(request))) {
      // What the site answers an unknown path: its 404 page (set by the SSR bridge).
      if (request.method === 'GET' || request.method === 'HEAD') await this.pages.serve(request, reply);
      else reply.callNotFound();
      return false;
    }
    const byHeader = request.headers.authorization?.startsWith('Bearer ') === true;
    if (!SAFE_METHODS.has(request.method) && !byHeader && !this.sameOrigin(request)) {
      const { status, body } = toErrorResponse(new CrossSiteRequestError());
      void reply.status(status).header('cache-control', 'no-store').send(body);
      return false;
    }
    return true;
  }

  private sameOrigin(request: FastifyRequest): boolean {
    return isSiteOrigin(request.headers.origin ?? request.headers.referer, this.config.http.origins);
  }
}
