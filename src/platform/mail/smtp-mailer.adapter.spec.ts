import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { loadConfig } from 'src/config/app-config';
import { WORKER_SHUTDOWN_TIMEOUT_MS } from 'src/platform/lifecycle/graceful-shutdown';
import { SMTP_TIMEOUTS, SmtpMailer } from './smtp-mailer.adapter';

describe('SmtpMailer', () => {
  it("gives up on a stuck server within the worker's shutdown limit, so a deploy never cuts a send off half-way", () => {
    const worstStall = SMTP_TIMEOUTS.connectionMs + SMTP_TIMEOUTS.greetingMs + SMTP_TIMEOUTS.socketIdleMs;
    expect(worstStall).toBeLessThan(WORKER_SHUTDOWN_TIMEOUT_MS);
  });

  it('fails the attempt (to be retried) when the server accepts the connection and never greets', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as { port: number };
    const mailer = new SmtpMailer(loadConfig({ SMTP_URL: `smtp://127.0.0.1:${port}` }));
    try {
      await expect(mailer.send({ to: 'player@example.com', subject: 'Hi', text: 'Hello', html: '<p>Hello</p>' })).rejects.toMatchObject({ code: 'ETIMEDOUT' });
      expect(sockets).toHaveLength(1);
    } finally {
      mailer.onApplicationShutdown();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  }, 15_000);
});
