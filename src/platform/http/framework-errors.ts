import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from 'src/platform/errors/app-error.filter';

/** The API's error body for a status Fastify or Node answers itself. */
export function frameworkErrorBody(status: number, message: string): ErrorBody {
  return { errors: [message], code: `HTTP.${status}` };
}

/**
 * Fastify's router refuses a malformed URL (400) or an over-long route parameter (414) before any
 * hook or Nest runs: answer in the API's `{errors, code}` shape rather than Fastify's own.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode ?? 400;
  const message = status === 414 ? 'URI Too Long' : 'Bad Request: the URL is not valid';
  void reply.status(status).header('cache-control', 'no-store').send(frameworkErrorBody(status, message));
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
};

/**
 * Node refuses a request it cannot parse (400), whose headers are too large (431) or that arrived
 * too slowly (408) before Fastify sees it: the same shape, written to the socket, which is closed.
 */
export function writeClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'Bad Request'];
  if (socket.writable) {
    const body = JSON.stringify(frameworkErrorBody(status, message));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
