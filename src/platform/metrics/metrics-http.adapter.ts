import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from 'src/config/app-config';
import { MetricsService } from './metrics.service';

export const METRICS_PATH = '/metrics';

/** Headers a reverse proxy adds: a request carrying one came from elsewhere, whatever its socket says. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

const digest = (value: string) => createHash('sha256').update(value).digest();

const isLoopback = (address: string | undefined) =>
  !!address && (address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address));

/**
 * Who may read the metrics: with METRICS_TOKEN, whoever sends `Authorization: Bearer <token>`
 * (compared in constant time); without it, a client on this machine only, by the socket's address
 * (not `request.ip`, which X-Forwarded-For sets under TRUST_PROXY) and with no forwarding header
 * (a proxy on this machine would otherwise make every visitor local).
 */
export function canReadMetrics(token: string | undefined, request: IncomingMessage): boolean {
  if (token) {
    const sent = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    // Digests have one length, so the comparison takes the same time whatever was sent.
    return sent !== undefined && timingSafeEqual(digest(sent), digest(token));
  }
  return isLoopback(request.socket.remoteAddress) && !FORWARDING_HEADERS.some((name) => name in request.headers);
}

const isScrape = (request: IncomingMessage) => request.method === 'GET' && request.url?.split('?', 1)[0] === METRICS_PATH;

/**
 * The web process's side: every response counted by route pattern in an onResponse hook, and
 * `GET /metrics` answered in an onRequest hook for those allowed. Everyone else's request goes on
 * as if nothing were there: to the SSR catch-all's 404 page, the answer of any unknown path.
 */
export function registerMetricsHttp(app: NestFastifyApplication, metrics: MetricsService, config: AppConfig): void {
  const fastify = app.getHttpAdapter().getInstance();
  const scrapes = new WeakSet<IncomingMessage>();

  fastify.addHook('onRequest', (request, reply, done) => {
    if (!isScrape(request.raw) || !canReadMetrics(config.metrics.token, request.raw)) return done();
    scrapes.add(request.raw);
    metrics.scrape().then(
      (body) => void reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(body),
      (error: Error) => done(error),
    );
  });

  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequest(routeLabel(request, scrapes, metrics), request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/** A bounded label: the route's pattern, never the path a client typed. */
function routeLabel(request: FastifyRequest, scrapes: WeakSet<IncomingMessage>, metrics: MetricsService): string {
  if (scrapes.has(request.raw)) return METRICS_PATH;
  const route = request.routeOptions.url;
  // No route: Fastify's own 404 (a method nothing answers).
  if (route === undefined) return 'unmatched';
  // The SSR catch-all: every page, labelled by its route in the page table.
  if (route === '*' || route === '/*') return metrics.pageRoute(request);
  // Static files are routes of their own; hashed asset names change with every build.
  if (route.startsWith('/assets/')) return '/assets/*';
  return route;
}

/**
 * The worker's metrics (it has no HTTP otherwise): `GET /metrics` on HOST:WORKER_METRICS_PORT with
 * the same access rule, started only when WORKER_METRICS_PORT is set; anything else is a 404.
 */
@Injectable()
export class WorkerMetricsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server?: Server;

  constructor(
    private readonly metrics: MetricsService,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.metrics.workerPort;
    if (port === undefined) return;
    const server = createServer((request, response) => void this.answer(request, response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.http.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.logger.log(`Metrics at http://${this.config.http.host}:${port}${METRICS_PATH}`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeAllConnections();
    await closed;
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!isScrape(request) || !canReadMetrics(this.config.metrics.token, request)) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end('Not Found');
      return;
    }
    try {
      const body = await this.metrics.scrape();
      response.writeHead(200, { 'content-type': this.metrics.contentType, 'cache-control': 'no-store' }).end(body);
    } catch (error) {
      this.logger.error({ err: error }, 'Metrics scrape failed');
      response.writeHead(500, { 'cache-control': 'no-store' }).end();
    }
  }
}
