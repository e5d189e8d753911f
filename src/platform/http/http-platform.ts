import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from 'src/config/app-config';
import { JsonOnlyError } from 'src/platform/errors/app-error';
import type { RedisConnection } from 'src/platform/redis/redis.module';
import { cspDirectives } from './csp';
import { rateLimitStore } from './rate-limit-store';

/** Request bodies above this size are refused with 413; routes that take uploads raise their own limit. */
export const BODY_LIMIT_BYTES = 64 * 1024;
/** The one file a multipart upload may carry (the image tool's 10 MB). */
export const UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const API_PATH = /^\/(api|auth)\//;
const JSON_TYPE = /^application\/json\s*(;|$)/i;
/** The API writes whose body is not JSON: the image upload (multipart) and Stripe's signed webhook (raw bytes). */
const NON_JSON_ROUTES = new Set(['POST /api/v1/images', 'POST /api/v1/payments/stripe/webhook']);

/**
 * Fastify plugins every route shares: security headers, compression, rate limits and the request-id
 * header. Errors raised by Fastify itself (bad JSON, 413, 429) reach AppErrorFilter through Nest.
 */
export async function configureHttpPlatform(
  app: NestFastifyApplication,
  config: AppConfig,
  redis: RedisConnection,
): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();

  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });

  // API writes take JSON only: another site's HTML form (urlencoded, multipart, text) cannot make one.
  fastify.addHook('onRequest', async (request) => {
    if (!WRITE_METHODS.has(request.method) || !API_PATH.test(request.url)) return;
    if (NON_JSON_ROUTES.has(`${request.method} ${request.routeOptions.url}`)) return;
    const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
    if (hasBody && !JSON_TYPE.test(request.headers['content-type'] ?? '')) throw new JsonOnlyError();
  });

  await app.register(cookie);

  // Uploads (the image tool): one file of at most UPLOAD_LIMIT_BYTES and a few short fields; a
  // larger file is refused with 413 while it streams in. Read by the routes that take uploads.
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 4096, fieldNameSize: 64, headerPairs: 50 },
  });

  await app.register(helmet, {
    contentSecurityPolicy: config.env === 'development' ? false : { useDefaults: false, directives: cspDirectives(config) },
    crossOriginEmbedderPolicy: false,
    hsts: config.http.publicUrl.startsWith('https:') ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });

  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    // Streamed pages flush each chunk so the shell reaches the browser before the rest renders.
    zlibOptions: { level: 6, flush: zlib.Z_SYNC_FLUSH },
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 }, flush: zlib.BROTLI_OPERATION_FLUSH },
  });

  await app.register(rateLimit, {
    global: false,
    // Counted in Redis, or in memory while Redis is unreachable: an outage never lifts the limits.
    store: rateLimitStore(redis.client, `${config.redis.keyPrefix}rate-limit:`, new Logger('RateLimit')),
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      Object.assign(new Error('Too many requests, please try again later.'), {
        statusCode: context.statusCode,
      }),
  });
}
