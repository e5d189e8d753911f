import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from 'src/config/app-config';
import type { PageFound, PageMatch, PayloadInput, RenderInput, ServerEntry } from 'src/contracts/ssr';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from 'src/platform/database/database.errors';
import { measureRoundTrips } from 'src/platform/database/round-trips';
import { MetricsService } from 'src/platform/metrics/metrics.service';
import { isCrawler } from './crawlers';
import { compressForRequest, type RenderedResponse } from './encoded-response';
import { PAYLOAD_SUFFIX, pathOf } from './page-target';
import { payloadHeaders } from './payload-headers';
import { ServerEntrySource } from './server-entry-source.port';
import { SitePageData } from './site-page-data';

/** Request headers page loaders may read; pages must not depend on anything else (caching). */
const FORWARDED_HEADERS = ['accept-language', 'user-agent'];
const HTML_TYPE = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Renders a request's match through the server entry: the HTML streamed into the reply, the payload
 * JSON of client navigation, or the bytes the page cache stores. A database outage is a 503 with
 * Retry-After; a render that fails is the plain error document; loader failures are logged.
 */
@Injectable()
export class PageRenderer {
  private readonly logger = new Logger('SSR');

  constructor(
    private readonly source: ServerEntrySource,
    private readonly pageData: SitePageData,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  /** A page for the cache: rendered whole, for nobody in particular; null unless it was found (200). */
  async pageForCache(entry: ServerEntry, request: FastifyRequest, match: PageFound, key: string): Promise<RenderedResponse | null> {
    // Not tied to this request: other requests wait for the same render.
    const input: RenderInput = { ...this.baseInput(request, key, new AbortController().signal), match, headers: {}, waitForAll: true };
    this.metrics.pageRendered('cache');
    const output = await this.load(match, false, () => entry.render(input));
    if (output.kind !== 'html') return null;
    const body = await readAll(output.stream);
    this.logErrors(output.errors, request);
    // Only found pages: 404s for arbitrary paths would churn the cache.
    if (output.status !== 200) return null;
    return { status: output.status, contentType: HTML_TYPE, body };
  }

  /** A payload for the cache: found pages only, as for the HTML; anything else is answered uncached. */
  async payloadForCache(entry: ServerEntry, request: FastifyRequest, match: PageMatch, key: string): Promise<RenderedResponse | null> {
    const { errors, ...payload } = await this.load(match, true, () => entry.payload({ ...this.baseInput(request, key, new AbortController().signal), match, headers: {} }));
    this.logErrors(errors ?? [], request);
    if (payload.status !== 200 || errors?.length) return null;
    return { status: 200, contentType: JSON_TYPE, body: Buffer.from(JSON.stringify(payload)) };
  }

  /** Streams the page into the reply (crawlers get the complete document, people the shell first). */
  async stream(entry: ServerEntry, request: FastifyRequest, reply: FastifyReply, match: PageFound, pathAndQuery: string, signal: AbortSignal, admin: boolean): Promise<void> {
    const input: RenderInput = { ...this.baseInput(request, pathAndQuery, signal, admin), match, waitForAll: isCrawler(request.headers['user-agent']) };
    try {
      this.metrics.pageRendered('stream');
      const output = await this.load(match, false, () => entry.render(input));
      if (output.kind === 'redirect') {
        void reply.redirect(output.location, output.status);
        return;
      }
      this.logErrors(output.errors, request);
      if (output.errors.some(isDatabaseUnavailable)) {
        // An outage, not a broken page: 503 and Retry-After, so crawlers and people come back.
        output.stream.destroy();
        return this.sendErrorDocument(entry, reply, 503);
      }
      output.stream.on('render-error', (error: unknown) => this.logger.error({ err: error, path: pathOf(request) }, 'Render error'));
      void reply
        .status(output.status)
        .header('content-type', HTML_TYPE)
        // An admin page depends on who asks: never stored.
        .header('cache-control', admin ? 'no-store' : 'no-cache');
      // A page still rendering streams, compressed by @fastify/compress as it comes (one flush per
      // React flush). A page React finished in its shell (no page suspends on the server today) is
      // one chunk already: compressed here in one call (compressForRequest), sent with its length.
      if (!output.complete) return void reply.send(output.stream);
      const { encoding, body } = compressForRequest(await readAll(output.stream), request.headers['accept-encoding']);
      void reply.header('vary', 'accept-encoding');
      if (encoding === 'identity') request.headers['x-no-compression'] = '1';
      else void reply.header('content-encoding', encoding);
      void reply.send(body);
    } catch (error) {
      if (signal.aborted) return;
      this.logger.error({ err: error, path: pathOf(request) }, 'Page failed to render');
      this.sendErrorDocument(entry, reply, 500);
    }
  }

  /** Answers the payload uncached, with a weak ETag of its JSON (304 when the client has it). */
  async payload(entry: ServerEntry, request: FastifyRequest, reply: FastifyReply, match: PageMatch, pathAndQuery: string, signal: AbortSignal, admin: boolean): Promise<void> {
    payloadHeaders(reply);
    const { errors, ...payload } = await this.load(match, true, () => entry.payload({ ...this.baseInput(request, pathAndQuery, signal, admin), match }));
    this.logErrors(errors ?? [], request);
    if (errors?.some(isDatabaseUnavailable)) {
      void reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).header('cache-control', 'no-store');
      return void reply.type(JSON_TYPE).send({ ...payload, status: 503, error: { status: 503 } });
    }
    const body = JSON.stringify(payload);
    const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
    void reply.header('etag', etag).header('cache-control', admin ? 'no-store' : 'no-cache').header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === etag) {
      void reply.status(304).send();
      return;
    }
    void reply.status(payload.status).type(JSON_TYPE).send(body);
  }

  /** Runs a render or payload (its loader inside) and records its database round trips under the page's metrics label. */
  private async load<T>(match: PageMatch, payload: boolean, work: () => Promise<T>): Promise<T> {
    const { value, roundTrips } = await measureRoundTrips(work);
    this.metrics.pageLoaded(payload ? `${match.pattern}${PAYLOAD_SUFFIX}` : match.pattern, roundTrips);
    return value;
  }

  private baseInput(request: FastifyRequest, pathAndQuery: string, signal: AbortSignal, admin = false): Omit<PayloadInput, 'match'> {
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    return {
      url: `${this.config.http.publicUrl}${pathAndQuery}`,
      headers,
      data: this.pageData.data,
      assets: this.source.assets(),
      buildId: this.source.buildId,
      signal,
      admin,
    };
  }

  /** The built assets (the error document's styles). */
  assets() {
    return this.source.assets();
  }

  private sendErrorDocument(entry: ServerEntry, reply: FastifyReply, status: 500 | 503): void {
    if (status === 503) void reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
    void reply
      .status(status)
      .header('content-type', HTML_TYPE)
      .header('cache-control', 'no-store')
      .send(entry.renderErrorDocument({ assets: this.source.assets(), status }));
  }

  private logErrors(errors: unknown[], request: FastifyRequest): void {
    for (const error of errors) {
      // An outage is one line, not a stack per request (the error filter does the same for the API).
      if (isDatabaseUnavailable(error)) this.logger.warn({ path: pathOf(request), cause: (error as Error).message }, 'Database unavailable: answered 503');
      else this.logger.error({ err: error, path: pathOf(request) }, 'Page loader failed');
    }
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}
