import { connect, type Socket } from 'node:net';
import type { InProcessApp } from './support/in-process-app';
import { sendFrom } from './support/loopback-client';
import { useInProcessSite } from './support/site';
import { until } from './support/until';

/** A connection to the app and everything it has answered so far. */
async function open(port: number, localAddress?: string): Promise<{ socket: Socket; received: () => string; closed: Promise<unknown>; isClosed: () => boolean }> {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  // A refused connection may be reset: that is a close like any other here.
  socket.on('error', () => undefined);
  let isClosed = false;
  const closed = new Promise((resolve) => socket.on('close', resolve)).then(() => (isClosed = true));
  await Promise.race([new Promise((resolve) => socket.on('connect', resolve)), closed]);
  return { socket, received: () => received, closed, isClosed: () => isClosed };
}

/** One request on a connection of its own (Connection: close): its status line, or '' if the server closed without answering. */
async function statusOf(port: number, path = '/healthz'): Promise<string> {
  const connection = await open(port);
  connection.socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  await connection.closed;
  return connection.received().split('\r\n')[0] ?? '';
}

/** A keep-alive request from a client behind a proxy (X-Forwarded-For): its status line, the connection left open. */
async function keptOpen(port: number, forwardedFor: string, proxy: string): Promise<{ socket: Socket; status: string }> {
  const connection = await open(port, proxy);
  connection.socket.write(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${forwardedFor}\r\n\r\n`);
  await until('an answer', () => connection.received().includes('\r\n\r\n'));
  return { socket: connection.socket, status: connection.received().split('\r\n')[0] ?? '' };
}

/** Writes `piece` every `everyMs` until the server closes the connection. */
function trickle(socket: Socket, piece: string, everyMs: number): () => void {
  const timer = setInterval(() => socket.writable && socket.write(piece), everyMs);
  return () => clearInterval(timer);
}

describe('slow and idle clients', () => {
  const site = useInProcessSite({ env: { NODE_ENV: 'production', MIGRATE_ON_START: 'true', HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000' } });

  it('cuts off a request whose body trickles in, answering 408, and logs it', async () => {
    const connection = await open(site.port);
    connection.socket.write('POST /api/v1/log_client_error HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{');
    const stop = trickle(connection.socket, ' ', 100);
    await connection.closed;
    stop();
    expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(connection.received().split('\r\n\r\n')[1]!)).toEqual({ errors: ['Request Timeout'], code: 'HTTP.408' });
    await until('the slow request logged', () => site.app.stdout().includes('connection(s) cut or refused: slow request'));
  });

  it('cuts off headers that never finish', async () => {
    const connection = await open(site.port);
    connection.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const stop = trickle(connection.socket, 'X-Slow: 1\r\n', 100);
    await connection.closed;
    stop();
    expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('still answers a normal request', async () => {
    expect(await statusOf(site.port)).toBe('HTTP/1.1 200 OK');
  });

  describe('with a cap of 5 open connections', () => {
    let capped: InProcessApp;

    beforeAll(async () => {
      // The site's short request timeouts would free the busy connections this test holds.
      capped = await site.startApp({
        HTTP_HEADERS_TIMEOUT_MS: '10000',
        HTTP_REQUEST_TIMEOUT_MS: '120000',
        HTTP_MAX_CONNECTIONS: '5',
        // The start-up check's keep-alive connection must not hold a place for long.
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '200',
      });
    });

    afterAll(async () => {
      await capped?.stop();
    });

    it('refuses connections over the cap while normal requests below it work', async () => {
      // Five connections busy with a request whose body never comes: none of them is idle. Node
      // answers "100 Continue" as it hands the request on, so each is known busy before the next.
      const busy: Awaited<ReturnType<typeof open>>[] = [];
      for (let i = 0; i < 5; i++) {
        const connection = await open(capped.port);
        connection.socket.write('POST /api/v1/log_client_error HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n');
        await until('the request handed on', () => connection.received().includes('100 Continue'));
        busy.push(connection);
      }
      // Over the cap: closed at once, nothing answered.
      expect(await statusOf(capped.port)).toBe('');
      await until('the refusal logged', () => capped.stdout().includes('connection(s) cut or refused: over the connection cap'));

      for (const { socket } of busy) socket.destroy();
      await until('a request under the cap answered', async () => (await statusOf(capped.port)) === 'HTTP/1.1 200 OK');
    });

    it('sheds the longest-idle connection near the cap, so idle holders give way to a visitor', async () => {
      const idle = await Promise.all([1, 2, 3, 4, 5].map(() => open(capped.port)));
      // Before: the visitor was refused until the idle connections timed out (60 s).
      expect(await statusOf(capped.port)).toBe('HTTP/1.1 200 OK');
      await until('the shedding logged', () => capped.stdout().includes('connection(s) cut or refused: idle, shed near the cap'));
      for (const { socket } of idle) socket.destroy();
    });
  });

  describe('with a cap of 10 open connections, slow bodies from several addresses', () => {
    let capped: InProcessApp;

    beforeAll(async () => {
      capped = await site.startApp({
        HTTP_HEADERS_TIMEOUT_MS: '10000',
        HTTP_REQUEST_TIMEOUT_MS: '120000',
        HTTP_MAX_CONNECTIONS: '10',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '200',
      });
    });

    afterAll(async () => {
      await capped?.stop();
    });

    /** A connection from one of three loopback addresses whose request body trickles in a byte at a time. */
    async function slowBody(i: number) {
      const connection = await open(capped.port, `127.0.4.${(i % 3) + 1}`);
      if (connection.isClosed()) return { ...connection, stop: () => undefined };
      // No "Expect: 100-continue" (no answer to wait for, as a slow client sends it): the body's first byte, then one every 200 ms.
      connection.socket.write('POST /api/v1/log_client_error HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
      return { ...connection, stop: trickle(connection.socket, ' ', 200) };
    }

    it('keeps a visitor served while slow bodies keep coming: the slowest give way near the cap', async () => {
      const attackers = [];
      for (let i = 0; i < 9; i++) attackers.push(await slowBody(i));
      expect(attackers.filter((c) => c.isClosed())).toHaveLength(0);
      // Their bodies have been arriving for a while: past SLOW_BODY_MS (1 s) they count as slow.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      // More keep coming, a little apart (each one's headers read before the next).
      for (let i = 9; i < 15; i++) {
        attackers.push(await slowBody(i));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Before: the cap full of trickling bodies, the visitor's connection was closed unanswered.
      expect(await statusOf(capped.port)).toBe('HTTP/1.1 200 OK');
      await until('the shedding logged', () => capped.stdout().includes('connection(s) cut or refused: slow body, shed near the cap'));
      for (const attacker of attackers) {
        attacker.stop();
        attacker.socket.destroy();
      }
    });
  });

  describe('with a cap of 4 connections per client', () => {
    let capped: InProcessApp;

    beforeAll(async () => {
      capped = await site.startApp({
        HTTP_HEADERS_TIMEOUT_MS: '10000',
        HTTP_REQUEST_TIMEOUT_MS: '120000',
        HTTP_MAX_CONNECTIONS_PER_CLIENT: '4',
        TRUST_PROXY: '1',
      });
    });

    afterAll(async () => {
      await capped?.stop();
    });

    it('closes the connections of one client over its cap while another client still gets pages', async () => {
      // One client at its own address (the start-up check's connection from 127.0.0.1 does not count against it).
      const held = await Promise.all(Array.from({ length: 8 }, () => open(capped.port, '127.0.3.1')));
      // The four over the cap are closed at once; the first four stay open.
      await until('the excess connections closed', () => held.filter((c) => c.isClosed()).length >= 4);
      expect(held.filter((c) => !c.isClosed())).toHaveLength(4);
      await until('the refusal logged', () => capped.stdout().includes('connection(s) cut or refused: over the per-client cap'));

      // Another client (127.0.0.2) is served.
      expect((await sendFrom(1, capped.port, '/levels', { method: 'GET', headers: {} })).status).toBe(200);
      for (const { socket } of held) socket.destroy();
    });

    it('behind TRUST_PROXY caps connections per forwarded address, request by request', async () => {
      // Five proxy connections (from 127.0.2.x, each under the socket cap) carry a request each from 203.0.113.9.
      const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => keptOpen(capped.port, '203.0.113.9', `127.0.2.${i + 1}`)));
      expect(answers.map((a) => a.status).sort()).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 200 OK', 'HTTP/1.1 200 OK', 'HTTP/1.1 200 OK', 'HTTP/1.1 429 Too Many Requests']);
      // Another forwarded client through the same proxy is served.
      expect((await keptOpen(capped.port, '203.0.113.10', '127.0.2.1')).status).toBe('HTTP/1.1 200 OK');
      for (const { socket } of answers) socket.destroy();
    });
  });
});
