import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from 'src/config/app-config';
import { JsonOnlyError, UploadBodyTypeError } from 'src/platform/errors/app-error';
import type { RedisConnection } from 'src/platform/redis/redis.module';
import { cspDirectives } from './csp';
import { frameworkErrors } from './framework-errors';
import { rateLimitStore } from './rate-limit-store';
import { securityHeaders } from './security-headers';

/** Request bodies above this size are refused with 413; routes that take uploads raise their own limit. */
export const BODY_LIMIT_BYTES = 64 * 1024;
/** The one file a multipart upload may carry (the image tool's 10 MB). */
export const UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;

/**
 * Fastify's options every web app shares, the web process (createWebApp) and the in-process
 * controller specs (controller-harness.ts): the body limit, long route parameters, and the
 * router's refusals answered in the API's shape.
 */
export const FASTIFY_OPTIONS = {
  bodyLimit: BODY_LIMIT_BYTES,
  routerOptions: { maxParamLength: 512 },
  return503OnClosing: true,
  frameworkErrors,
} as const;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const API_PATH = /^\/(api|auth)\//;
const JSON_TYPE = /^application\/json\s*(;|$)/i;
const MULTIPART_FORM_TYPE = /^multipart\/form-data\s*(;|$)/i;
const URLENCODED_FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;
/** The API write that takes a multipart form as well as JSON: the image upload. */
const UPLOAD_ROUTE = 'POST /api/v1/images';
/** RFC 8058's one-click unsubscribe: mail providers POST `List-Unsubscribe=One-Click` as a form (the signed token is the credential). */
const UNSUBSCRIBE_ROUTE = 'POST /api/v1/reminders/unsubscribe';
/** The API write whose body is raw bytes: Stripe's signed webhook (checked by its signature). */
const RAW_BODY_ROUTE = 'POST /api/v1/payments/stripe/webhook';

/**
 * The path as the router matched it: the route's pattern when one matched, else the URL's path
 * percent-decoded with repeated slashes as one. The raw URL spells one route many ways
 * (`/%61pi/v1/...`, `//api/...`): a rule about API paths read from it has side doors.
 */
export function routedPath(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (route && route !== '*' && route !== '/*') return route;
  const path = request.url.split('?', 1)[0]!;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape: the router refuses it (400); the raw path is as good as any.
  }
  return decoded.replace(/\/{2,}/g, '/');
}

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

  // Hooks every request runs take a callback, not a promise: cheaper on the hot path (cached pages).
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });

  // API writes take JSON only: another site's HTML form (urlencoded, multipart, text) cannot make one.
  // The upload takes multipart/form-data too (a cross-site form can send that: SignedInGuard
  // refuses it), and nothing else, so an urlencoded form never reaches it. The one-click unsubscribe
  // takes the urlencoded form mail providers send (RFC 8058), and nothing else beside JSON.
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (!WRITE_METHODS.has(request.method) || !API_PATH.test(routedPath(request))) return done();
    const route = `${request.method} ${request.routeOptions.url}`;
    if (route === RAW_BODY_ROUTE) return done();
    const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
    const type = request.headers['content-type'] ?? '';
    if (!hasBody || JSON_TYPE.test(type)) return done();
    if (route === UPLOAD_ROUTE) return done(MULTIPART_FORM_TYPE.test(type) ? undefined : new UploadBodyTypeError());
    if (route === UNSUBSCRIBE_ROUTE && URLENCODED_FORM_TYPE.test(type)) return done();
    done(new JsonOnlyError());
  });

  await app.register(cookie);

  // Uploads (the image tool): one file of at most UPLOAD_LIMIT_BYTES and a few short fields; a
  // larger file is refused with 413 while it streams in. Read by the routes that take uploads.
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 4096, fieldNameSize: 64, headerPairs: 50 },
  });

  // helmet's headers, the same on every response: computed once, set on the raw response so that
  // answers written past Fastify's reply (hijacked) carry them too.
  const headers = Object.entries(
    securityHeaders({
      contentSecurityPolicy: config.env === 'development' ? false : { useDefaults: false, directives: cspDirectives(config) },
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: config.http.publicUrl.startsWith('https:') ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      // Left out: headers only browsers that cannot run this site's module scripts read (IE 8's
      // X-Download-Options, the XSS auditors X-XSS-Protection: 0 turned off, removed from every
      // engine by 2019) and Adobe's X-Permitted-Cross-Domain-Policies (Flash, Acrobat: without a
      // /crossdomain.xml, which this site has not, they get no cross-domain access anyway). 86
      // bytes on every response for nothing (issue 35).
      xDownloadOptions: false,
      xXssProtection: false,
      xPermittedCrossDomainPolicies: false,
    }),
  );
  fastify.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });

  // What this plugin compresses per response: API answers, and pages that stream because they
  // suspended (none does today), flushed per chunk so the shell reaches the browser before the rest
  // renders; React's writes arrive coalesced (web/lib/flush-coalescer.ts), one flush per React
  // flush. A page React finished is compressed by the SSR bridge itself, and cached pages and assets
  // are stored compressed (src/ssr/encoded-response.ts): the plugin skips a body that has
  // Content-Encoding. The 256 KB window is plenty for pages.
  await app.register(compress, {
    threshold: 1024,
    // A whole body (an API answer) up to this size is compressed in one synchronous call, cheaper
    // than a trip through the thread pool as a stream (brotli 4 on the level page: 0.30 ms against
    // 0.41 ms); the plugin's default ceiling on 2 cores is 8 KB.
    syncThreshold: 256 * 1024,
    encodings: ['br', 'gzip'],
    zlibOptions: { level: 4, flush: zlib.Z_SYNC_FLUSH },
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 1, [zlib.BROTLI_PARAM_LGWIN]: 18 }, flush: zlib.BROTLI_OPERATION_FLUSH },
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
