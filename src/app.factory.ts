import type { IncomingMessage } from 'node:http';
import { Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { AppModule } from './app.module';
import type { AppConfig } from './config/app-config';
import { TooManyConnectionsError } from './platform/errors/app-error';
import { applyConnectionLimits, ConnectionCutLog, connectionLimitOptions } from './platform/http/connection-limits';
import { configureHttpPlatform, FASTIFY_OPTIONS } from './platform/http/http-platform';
import { writeClientError } from './platform/http/framework-errors';
import { setupOpenApi } from './platform/http/openapi';
import { registerMetricsHttp } from './platform/metrics/metrics-http.adapter';
import { MetricsService } from './platform/metrics/metrics.service';
import { requestIdOf } from './platform/logging/request-id';
import { RedisConnection } from './platform/redis/redis.module';
import { SsrModule } from './ssr/ssr.module';

/**
 * Builds the web application (used by main.ts and by the tests' in-process app, which passes `logs`
 * to read the log lines). Call listen() or init() on it.
 */
export async function createWebApp(config: AppConfig, rootDir: string, options: { logs?: DestinationStream } = {}): Promise<NestFastifyApplication> {
  const pages = await SsrModule.createSource(config.env === 'development' ? 'vite' : 'built', rootDir);
  const { trustProxy, limits } = config.http;
  const cuts = new ConnectionCutLog(new NestLogger('HTTP'), limits);
  const adapter = new FastifyAdapter({
    ...connectionLimitOptions(limits),
    ...FASTIFY_OPTIONS,
    // A hop count trusts that many proxies in front (what Fastify does with a number, typed as a function).
    trustProxy: typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    genReqId: (req: IncomingMessage) => requestIdOf(req),
    clientErrorHandler: (error, socket) => {
      if ((error as NodeJS.ErrnoException).code === 'ERR_HTTP_REQUEST_TIMEOUT') cuts.note('slow request');
      writeClientError(error, socket);
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, pages, options.logs), adapter, {
    bufferLogs: true,
    // Stripe signs the exact bytes it sends: the webhook verifies request.rawBody.
    rawBody: true,
  });
  app.useLogger(app.get(Logger));
  const clients = applyConnectionLimits(app.getHttpServer(), limits, cuts);
  // Behind TRUST_PROXY the client's own address is known per request only: over its cap, answer and close.
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      if (clients.admitRequest(request.ip, request.raw.socket)) return done();
      void reply.header('connection', 'close');
      done(new TooManyConnectionsError());
    });
  await configureHttpPlatform(app, config, app.get(RedisConnection));
  registerMetricsHttp(app, app.get(MetricsService), config);
  setupOpenApi(app, config);
  // The client files (dist/client, or Vite's middleware in development). The pages' own hooks (cache
  // fast path, metrics labels, guide views, the queue dashboard) install as SsrModule starts (SsrHttpHooks).
  await SsrModule.registerAssets(app, pages, rootDir);
  return app;
}
