import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { LoggerService } from '@nestjs/common';
import type { HttpLimits } from 'src/config/app-config';

type Cut = 'slow request' | 'idle connection' | 'over the connection cap';

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
 */
export function applyConnectionLimits(server: Server, limits: HttpLimits, cuts: ConnectionCutLog): void {
  server.maxConnections = limits.maxConnections;
  server.on('drop', () => cuts.note('over the connection cap'));
  // With a 'timeout' listener Node leaves the socket open: cut it here.
  server.on('timeout', (socket: Socket) => {
    cuts.note('idle connection');
    socket.destroy();
  });
}
