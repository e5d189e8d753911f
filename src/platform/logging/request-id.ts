import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const VALID_ID = /^[A-Za-z0-9._-]{8,128}$/;
const ID = Symbol('requestId');

/**
 * The request id: the caller's `x-request-id` when it looks like an id (a proxy's), otherwise a new
 * UUID. Memoised on the raw request so Fastify and the logger agree on it.
 */
export function requestIdOf(req: IncomingMessage): string {
  const holder = req as IncomingMessage & { [ID]?: string };
  if (!holder[ID]) {
    const header = req.headers['x-request-id'];
    holder[ID] = typeof header === 'string' && VALID_ID.test(header) ? header : randomUUID();
  }
  return holder[ID];
}
