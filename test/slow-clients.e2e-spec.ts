import { connect, type Socket } from 'node:net';
import { startApp, type RunningApp } from './support/app-process';
import { useSite } from './support/site';
import { until } from './support/until';

/** A connection to the app and everything it has answered so far. */
async function open(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<unknown> }> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  // A refused connection may be reset: that is a close like any other here.
  socket.on('error', () => undefined);
  const closed = new Promise((resolve) => socket.on('close', resolve));
  await Promise.race([new Promise((resolve) => socket.on('connect', resolve)), closed]);
  return { socket, received: () => received, closed };
}

/** One request on a connection of its own (Connection: close): its status line, or '' if the server closed without answering. */
async function statusOf(port: number, path = '/healthz'): Promise<string> {
  const connection = await open(port);
  connection.socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
  await connection.closed;
  return connection.received().split('\r\n')[0] ?? '';
}

/** Writes `piece` every `everyMs` until the server closes the connection. */
function trickle(socket: Socket, piece: string, everyMs: number): () => void {
  const timer = setInterval(() => socket.writable && socket.write(piece), everyMs);
  return () => clearInterval(timer);
}

describe('slow and idle clients', () => {
  const site = useSite({ env: { NODE_ENV: 'production', MIGRATE_ON_START: 'true', HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000' } });

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
    let capped: RunningApp;

    beforeAll(async () => {
      capped = await startApp({
        DATABASE_URL: site.database!.url,
        DATA_DIR: site.dataDir,
        NODE_ENV: 'production',
        MIGRATE_ON_START: 'false',
        HTTP_MAX_CONNECTIONS: '5',
        // The start-up check's keep-alive connection must not hold a place for long.
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '200',
      });
    });

    afterAll(async () => {
      await capped?.stop();
    });

    it('refuses connections over the cap while normal requests below it work', async () => {
      // The start-up check's connection ends once idle; then a request on a fifth connection works.
      const idle = await Promise.all([1, 2, 3, 4].map(() => open(capped.port)));
      await until('a request under the cap answered', async () => (await statusOf(capped.port)) === 'HTTP/1.1 200 OK');

      idle.push(await open(capped.port));
      // Over the cap: closed at once, nothing answered.
      expect(await statusOf(capped.port)).toBe('');
      await until('the refusal logged', () => capped.stdout().includes('connection(s) cut or refused: over the connection cap'));

      for (const { socket } of idle) socket.destroy();
      await until('a request under the cap answered', async () => (await statusOf(capped.port)) === 'HTTP/1.1 200 OK');
    });
  });
});
