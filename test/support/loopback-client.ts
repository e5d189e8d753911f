import { request } from 'node:http';

export interface LoopbackRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * One HTTP request from loopback address number `client` (127.0.x.y), with the path sent as
 * written: per-client rate limits count each client apart, so many requests reach the route.
 */
export function sendFrom(client: number, port: number, path: string, init: LoopbackRequest) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const localAddress = `127.0.${1 + (client >> 8)}.${1 + (client % 254)}`;
    const body = init.body === undefined ? undefined : Buffer.from(init.body);
    // One connection per request, closed after it: no idle keep-alive sockets pile up per address.
    const headers = { ...init.headers, connection: 'close', ...(body ? { 'content-length': String(body.length) } : {}) };
    const req = request({ host: '127.0.0.1', port, path, method: init.method, headers, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
