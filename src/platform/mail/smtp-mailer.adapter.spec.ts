import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { loadConfig } from 'src/config/app-config';
import { MailOutcomeUnknownError } from './mailer.port';
import { SmtpMailer } from './smtp-mailer.adapter';

describe('SmtpMailer', () => {
  it('waits as RFC 5321 says by default (5 min for the greeting, 10 min for a reply), so a slow server is not sent a copy per attempt', () => {
    expect(loadConfig({}).mail.timeouts).toEqual({ connectionMs: 120_000, greetingMs: 300_000, socketIdleMs: 600_000 });
  });

  it('fails the attempt (to be retried) when the server accepts the connection and never greets', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as { port: number };
    const mailer = new SmtpMailer(loadConfig({ SMTP_URL: `smtp://127.0.0.1:${port}`, SMTP_GREETING_TIMEOUT_MS: '300' }));
    try {
      const sent = mailer.send({ to: 'player@example.com', subject: 'Hi', text: 'Hello', html: '<p>Hello</p>' });
      await expect(sent).rejects.toMatchObject({ code: 'ETIMEDOUT' });
      // Nothing was sent: not an unknown outcome, an ordinary retry.
      await expect(sent).rejects.not.toBeInstanceOf(MailOutcomeUnknownError);
      expect(sockets).toHaveLength(1);
    } finally {
      mailer.onApplicationShutdown();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
