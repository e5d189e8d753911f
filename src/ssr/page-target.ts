import type { FastifyReply, FastifyRequest } from 'fastify';
import { frameworkErrorBody } from 'src/platform/http/framework-errors';

/** Client navigation asks for a page's data at its path plus this suffix. */
export const PAYLOAD_SUFFIX = '/_payload.json';
const MAX_URL_LENGTH = 8192;

/** Request targets that name no page of this site, refused before anything is matched. */
export type TargetRefusal = 'too-long' | 'absolute-form' | 'double-slash';

export function refusalOf(url: string): TargetRefusal | null {
  if (url.length > MAX_URL_LENGTH) return 'too-long';
  // An absolute-form target (`GET http://host/path`, meant for proxies) names no page of this site.
  if (!url.startsWith('/')) return 'absolute-form';
  // Nor does a path starting with '//' (URL parsers, the page router's too, read it as a host).
  if (url.startsWith('//')) return 'double-slash';
  return null;
}

/** Answers a refused target: 414, 400 or 404 in plain text (an API client gets the API's error shape for 414). */
export function sendRefusal(request: FastifyRequest, reply: FastifyReply, refusal: TargetRefusal): void {
  if (refusal === 'too-long') {
    if (request.url.startsWith('/api/')) void reply.status(414).header('cache-control', 'no-store').send(frameworkErrorBody(414, 'URI Too Long'));
    else void reply.status(414).type('text/plain').send('URI Too Long');
  } else if (refusal === 'absolute-form') void reply.status(400).type('text/plain').send('Bad Request');
  else void reply.status(404).type('text/plain').send('Not Found');
}

/** What a request target asks for: a page, or its payload JSON (`/levels/27/_payload.json`). */
export interface PageTarget {
  pathname: string;
  search: string;
  payload: boolean;
  /** The page's path and query: the payload suffix taken off. */
  pagePathAndQuery: string;
}

export function pageTarget(url: string): PageTarget {
  const [pathname, search = ''] = splitUrl(url);
  const payload = pathname.endsWith(PAYLOAD_SUFFIX);
  return { pathname, search, payload, pagePathAndQuery: payload ? (pathname.slice(0, -PAYLOAD_SUFFIX.length) || '/') + search : url };
}

/** Paths only in logs: query strings may carry emails or tokens. */
export const pathOf = (request: FastifyRequest) => splitUrl(request.url)[0];

function splitUrl(url: string): [string, string?] {
  const index = url.indexOf('?');
  return index === -1 ? [url] : [url.slice(0, index), url.slice(index)];
}
