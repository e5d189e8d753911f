import { once } from 'node:events';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string[];
  raw: string;
  subject: string;
  /** The text with quoted-printable soft breaks and escapes undone. */
  body: string;
}

function decodeQuotedPrintable(s: string): string {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * A real SMTP server on an ephemeral port that keeps every message: the app sends to it through
 * SMTP_URL exactly as it would to a mail provider.
 */
export async function startMailSink() {
  const messages: CapturedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        const subject = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '';
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, subject, body: decodeQuotedPrintable(raw) });
        waiters.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** Waits for the next message to `to` matching `subject`, up to 20 s. */
    async waitFor(to: string, subject: RegExp, after = 0): Promise<CapturedMail> {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const found = messages.slice(after).find((m) => m.to.includes(to) && subject.test(m.subject));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`No mail to ${to} matching ${subject} (got: ${messages.map((m) => `${m.to} ${m.subject}`).join('; ')})`);
        await new Promise<void>((wake) => {
          waiters.push(wake);
          setTimeout(wake, 500).unref();
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type MailSink = Awaited<ReturnType<typeof startMailSink>>;

/** The token of the first link to `path#token=...` in a mail. */
export function linkToken(mail: CapturedMail, path: string): string {
  const match = new RegExp(`${path.replace(/[/]/g, '\\/')}#token=([A-Za-z0-9_-]{43})`).exec(mail.body);
  if (!match) throw new Error(`No ${path} link in:\n${mail.body}`);
  return match[1]!;
}
