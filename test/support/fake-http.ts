import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PageFound, PageMatch, PagePayload, RenderOutput, ServerEntry } from 'src/contracts/ssr';

/** A Fastify request as the SSR bridge reads it, routed to the pages' catch-all. */
export function fakeRequest(url: string, init: { method?: string; headers?: Record<string, string> } = {}): FastifyRequest {
  return { url, method: init.method ?? 'GET', headers: { ...init.headers }, id: 'req-1', routeOptions: { url: '*' } } as unknown as FastifyRequest;
}

/** What a fake reply was told: status, headers (those set on the raw response included), body, redirect. */
export interface SentReply {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
  sent: boolean;
  redirect?: { location: string; status: number };
}

/** A Fastify reply that records what the bridge sends, with a raw response for header removal and 'close'. */
export function fakeReply(rawHeaders: Record<string, string> = {}): { reply: FastifyReply; sent: SentReply } {
  const sent: SentReply = { status: 200, headers: {}, sent: false };
  const raw = {
    writableFinished: false,
    getHeaders: () => ({ ...rawHeaders }),
    removeHeader: (name: string) => delete rawHeaders[name],
    on: () => raw,
  };
  const reply = {
    raw,
    status(code: number) {
      sent.status = code;
      return reply;
    },
    header(name: string, value: string) {
      sent.headers[name.toLowerCase()] = value;
      return reply;
    },
    headers(values: Record<string, string>) {
      for (const [name, value] of Object.entries(values)) reply.header(name, value);
      return reply;
    },
    type(value: string) {
      return reply.header('content-type', value);
    },
    getHeaders: () => ({ ...sent.headers }),
    send(body?: unknown) {
      sent.body = body;
      sent.sent = true;
      sent.headers = { ...rawHeaders, ...sent.headers };
      return reply;
    },
    redirect(location: string, status: number) {
      sent.redirect = { location, status };
      sent.status = status;
      sent.sent = true;
      return reply;
    },
  };
  return { reply: reply as unknown as FastifyReply, sent };
}

/** A found page's match, as the server entry gives it. */
export function foundMatch(overrides: Partial<PageFound> = {}): PageFound {
  const page = { route: { id: 'level', pattern: '/levels/:id', cache: true, query: [] }, params: { id: '27' } };
  return { kind: 'page', pattern: '/levels/:id', adminOnly: false, locale: 'en', cacheKey: '/levels/27', page, publicPage: page, ...overrides };
}

/** A server entry whose answers a test sets, counting what the bridge asks it. */
export function fakeServerEntry(init: { match?: (pathAndQuery: string) => PageMatch; html?: () => RenderOutput; payload?: () => PagePayload } = {}) {
  const calls = { match: [] as string[], render: 0, payload: 0, errorDocument: [] as number[] };
  const entry: ServerEntry = {
    match(pathAndQuery) {
      calls.match.push(pathAndQuery);
      return init.match ? init.match(pathAndQuery) : foundMatch();
    },
    async render() {
      calls.render++;
      return init.html ? init.html() : html('<html>page</html>');
    },
    async payload() {
      calls.payload++;
      return init.payload ? init.payload() : { routeId: 'level', locale: 'en', params: { id: '27' }, status: 200, data: { n: 27 } };
    },
    renderErrorDocument({ status }) {
      calls.errorDocument.push(status);
      return `<!DOCTYPE html>error ${status}`;
    },
    sitemapPaths: () => ['/'],
    pageSections: () => ({ level: ['levels'] }),
  };
  return { entry, calls };
}

export function html(body: string, status = 200, errors: unknown[] = []): RenderOutput {
  return { kind: 'html', status, stream: Readable.from([Buffer.from(body)]), complete: true, errors };
}
