import { once } from 'node:events';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string[];
  subject: string;
  /** The whole message: its headers as sent, its body with quoted-printable soft breaks and escapes undone, so links read whole. */
  raw: string;
}

/**
 * Undoes quoted-printable in the body only: the headers are not encoded that way, and a header
 * with `=71…` in it (a token starting with two digits after `token=`) would otherwise lose its `=`.
 */
function decodeQuotedPrintable(s: string): string {
  const end = s.search(/\r?\n\r?\n/);
  const [head, body] = end < 0 ? [s, ''] : [s.slice(0, end), s.slice(end)];
  return head + body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const smtpError = (message: string, responseCode: number) => Object.assign(new Error(message), { responseCode });

/**
 * A real SMTP server on an ephemeral port that keeps every message: the app sends to it through
 * SMTP_URL exactly as it would to a mail provider. `state` makes it misbehave like real servers:
 * 451 (try later) for the next `rejectNext` messages, 550 at RCPT TO for `unknownUsers`, and mail to
 * an address in `hold` is answered only when `release()` is called, and with `replyDelayMs` each
 * message is kept at once but its end of DATA answered that much later (a slow provider).
 */
export async function startMailSink() {
  const delivered: CapturedMail[] = [];
  const state = { attempts: 0, rejectNext: 0, unknownUsers: new Set<string>(), hold: new Set<string>(), replyDelayMs: 0 };
  let receiving = false;
  let release = () => undefined as void;
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      callback(state.unknownUsers.has(address.address) ? smtpError('No such user here', 550) : null);
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        state.attempts++;
        if (state.rejectNext > 0) {
          state.rejectNext--;
          return callback(smtpError('Greylisted, try again later', 451));
        }
        const to = session.envelope.rcptTo.map((r) => r.address);
        const accept = () => {
          const subject = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '';
          delivered.push({ to, subject, raw: decodeQuotedPrintable(raw) });
          waiters.splice(0).forEach((wake) => wake());
          callback();
        };
        if (state.replyDelayMs > 0) {
          // Kept at once, answered late: a client that gives up first has delivered it all the same.
          const subject = /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '';
          delivered.push({ to, subject, raw: decodeQuotedPrintable(raw) });
          return void setTimeout(() => callback(), state.replyDelayMs);
        }
        if (!to.some((address) => state.hold.has(address))) return accept();
        receiving = true;
        release = accept;
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    delivered,
    state,
    /** True once a held message has reached the server. */
    receiving: () => receiving,
    release: () => release(),
    /** Waits for a message to `to` whose subject matches, among those delivered after index `after`, up to 20 s. */
    async waitFor(to: string, subject: RegExp, after = 0): Promise<CapturedMail> {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const found = delivered.slice(after).find((m) => m.to.includes(to) && subject.test(m.subject));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`No mail to ${to} matching ${subject} (got: ${delivered.map((m) => `${m.to} ${m.subject}`).join('; ')})`);
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
  const match = new RegExp(`${path.replace(/[/]/g, '\\/')}#token=([A-Za-z0-9_-]{43})`).exec(mail.raw);
  if (!match) throw new Error(`No ${path} link in:\n${mail.raw}`);
  return match[1]!;
}
