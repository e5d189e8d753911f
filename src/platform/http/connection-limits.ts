import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { LoggerService } from '@nestjs/common';
import type { HttpLimits } from 'src/config/app-config';

type Cut = 'slow request' | 'idle connection' | 'over the connection cap' | 'over the per-client cap' | 'idle, shed near the cap' | 'slow body, shed near the cap';

/**
 * A request body still arriving this long after its headers may be shed near the cap, once no idle
 * connection is left to shed. A visitor's JSON body arrives in one packet; 2,048 bodies trickled in
 * from 64 addresses held every place for the 2-minute request timeout (visitors refused for 8 s of 94).
 */
export const SLOW_BODY_MS = 1_000;

/**
 * Counts the connections cut or refused and logs at most one line a minute per kind (a flood of
 * slow clients must not flood the log too), with how many since the last line.
 */
export class ConnectionCutLog {
  private readonly counts = new Map<Cut, { count: number; loggedAt: number }>();

  constructor(
    private readonly logger: Pick<LoggerService, 'warn'>,
    private readonly limits: HttpLimits,
    private readonly everyMs = 60_000,
  ) {}

  note(cut: Cut, now = Date.now()): void {
    const entry = this.counts.get(cut) ?? { count: 0, loggedAt: -Infinity };
    entry.count += 1;
    this.counts.set(cut, entry);
    if (now - entry.loggedAt < this.everyMs) return;
    const { count } = entry;
    entry.count = 0;
    entry.loggedAt = now;
    this.logger.warn({ cut, count, limits: this.limits }, `HTTP: ${count} connection(s) cut or refused: ${cut} (logged at most once a minute)`);
  }
}

/** Fastify's options for the limits it sets itself, and Node's for the rest (headers timeout, how often it checks). */
export function connectionLimitOptions(limits: HttpLimits) {
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Socket inactivity (Fastify calls server.setTimeout with it); applyConnectionLimits logs the cut.
    connectionTimeout: limits.idleTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      // Node checks the headers and request timeouts on this interval (30 s by default).
      connectionsCheckingInterval: Math.min(5000, Math.max(100, Math.floor(limits.headersTimeoutMs / 4))),
    },
  };
}

/**
 * Caps open connections (a connection over the cap is closed at once, before any byte is read) and
 * logs idle connections as they are cut. Slow requests are logged by the client error handler (408).
 * Also caps connections per client, and sheds idle ones near the total cap (ClientConnections).
 */
export function applyConnectionLimits(server: Server, limits: HttpLimits, cuts: ConnectionCutLog): ClientConnections {
  server.maxConnections = limits.maxConnections;
  server.on('drop', () => cuts.note('over the connection cap'));
  // With a 'timeout' listener Node leaves the socket open: cut it here.
  server.on('timeout', (socket: Socket) => {
    cuts.note('idle connection');
    socket.destroy();
  });
  return new ClientConnections(server, limits, cuts);
}

/**
 * One client must not hold every connection. Each socket's remote address may hold
 * `maxConnectionsPerClient` connections; one more is closed at once. Behind a reverse proxy every
 * socket comes from the proxy, and the client's own address (X-Forwarded-For, with TRUST_PROXY) is
 * only known per request: `admitRequest` counts the connections that carried a request from each
 * forwarded address, and closes the one over the cap after answering. So the proxy itself must
 * limit connections per client (nginx `limit_conn`, HAProxy `src_conn_cur`) and set
 * X-Forwarded-For: this process cannot tell its clients apart before a request arrives.
 * Near the total cap (the last tenth), a new connection first closes the longest-idle one
 * (no request in flight: an idle keep-alive or one that never sent a request), else the one whose
 * request body has been arriving longest (over SLOW_BODY_MS), so idle and slow holders give way to
 * visitors instead of refusing them.
 */
export class ClientConnections {
  private readonly perAddress = new Map<string, number>();
  private readonly forwarded = new Map<string, Set<Socket>>();
  private readonly clientsOf = new WeakMap<Socket, Set<string>>();
  /** Sockets with no request in flight, the longest idle first (a Set keeps insertion order). */
  private readonly idle = new Set<Socket>();
  /** Sockets whose request body is still arriving, with when its headers came, the oldest first. */
  private readonly receiving = new Map<Socket, number>();
  private open = 0;
  private readonly nearCap: number;

  constructor(
    server: Server,
    private readonly limits: HttpLimits,
    private readonly cuts: ConnectionCutLog,
  ) {
    this.nearCap = limits.maxConnections - Math.max(1, Math.floor(limits.maxConnections / 10));
    server.on('connection', (socket: Socket) => this.connected(socket));
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const { socket } = request;
      this.idle.delete(socket);
      const length = request.headers['content-length'];
      if ((length !== undefined ? Number(length) > 0 : request.headers['transfer-encoding'] !== undefined) && !request.complete) {
        this.receiving.set(socket, Date.now());
        request.once('end', () => this.receiving.delete(socket));
      }
      response.once('close', () => {
        this.receiving.delete(socket);
        if (!socket.destroyed) this.idle.add(socket);
      });
    });
  }

  private connected(socket: Socket): void {
    const address = socket.remoteAddress ?? '';
    const count = (this.perAddress.get(address) ?? 0) + 1;
    if (count > this.limits.maxConnectionsPerClient) {
      this.cuts.note('over the per-client cap');
      socket.destroy();
      return;
    }
    this.perAddress.set(address, count);
    this.open += 1;
    if (this.open > this.nearCap) this.shedIdle();
    this.idle.add(socket);
    socket.once('close', () => {
      this.open -= 1;
      this.idle.delete(socket);
      this.receiving.delete(socket);
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left > 0) this.perAddress.set(address, left);
      else this.perAddress.delete(address);
    });
  }

  private shedIdle(now = Date.now()): void {
    const oldest = this.idle.values().next();
    if (!oldest.done) {
      this.idle.delete(oldest.value);
      this.cuts.note('idle, shed near the cap');
      oldest.value.destroy();
      return;
    }
    const slowest = this.receiving.entries().next();
    if (slowest.done || now - slowest.value[1] < SLOW_BODY_MS) return;
    this.receiving.delete(slowest.value[0]);
    this.cuts.note('slow body, shed near the cap');
    slowest.value[0].destroy();
  }

  /**
   * Counts this request's connection for its forwarded client address (`clientIp`, from
   * X-Forwarded-For behind TRUST_PROXY); false when that client already holds the cap in other
   * connections: the caller answers and closes this one.
   */
  admitRequest(clientIp: string, socket: Socket): boolean {
    if (clientIp === socket.remoteAddress) return true;
    const sockets = this.forwarded.get(clientIp) ?? new Set<Socket>();
    if (sockets.has(socket)) return true;
    if (sockets.size >= this.limits.maxConnectionsPerClient) {
      this.cuts.note('over the per-client cap');
      return false;
    }
    sockets.add(socket);
    this.forwarded.set(clientIp, sockets);
    // A proxy's connection carries many clients: one close listener per socket forgets them all.
    let clients = this.clientsOf.get(socket);
    if (!clients) {
      const mine = (clients = new Set());
      this.clientsOf.set(socket, mine);
      socket.once('close', () => {
        for (const ip of mine) {
          const held = this.forwarded.get(ip);
          held?.delete(socket);
          if (held?.size === 0) this.forwarded.delete(ip);
        }
      });
    }
    clients.add(clientIp);
    return true;
  }
}
