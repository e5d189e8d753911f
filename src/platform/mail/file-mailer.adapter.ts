import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Injectable, Logger } from '@nestjs/common';
import { createTransport } from 'nodemailer';
import { AppConfig } from 'src/config/app-config';
import { unsubscribeHeaders, type MailMessage } from './mail-message';
import { Mailer, type SendOptions } from './mailer.port';

/** The first http(s) link of a text, without trailing punctuation. */
export function firstLink(text: string): string | undefined {
  return /https?:\/\/[^\s<>"')\]]+/.exec(text)?.[0].replace(/[.,;:!?]+$/, '');
}

/** `player@example.com` → `p***@example.com`: enough to tell messages apart in a log, not to read the address. */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf('@');
  return at > 0 ? `${address[0]}***${address.slice(at)}` : '***';
}

/**
 * The embedded stand-in when SMTP_URL is not set: each message becomes an .eml file under
 * DATA_DIR/mail (open it in any mail client or editor: its text part is not encoded), and one log
 * line names it. With NODE_ENV=development and in the local try-out the line also carries the
 * recipient and the message's first link, so a newcomer can click a confirmation link; anywhere
 * else links are live credentials, so the line names the file only.
 */
@Injectable()
export class FileMailer extends Mailer {
  private readonly logger = new Logger('Mail');
  // Nodemailer composes the MIME message exactly as it would send it, into a buffer.
  private readonly composer = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  private readonly dir: string;
  private readonly from: string;
  private readonly development: boolean;

  constructor(config: AppConfig) {
    super();
    this.dir = config.mail.dir;
    this.from = config.mail.from;
    // The local try-out too: a newcomer confirms the first account from the terminal.
    this.development = config.env === 'development' || config.local;
  }

  async send(message: MailMessage, options: SendOptions = {}): Promise<void> {
    // The text part as it is (8bit, no quoted-printable): a link copied from the file works. Lines
    // stay far below SMTP's 998-character limit; this file is for people, SMTP keeps the default.
    const text = { raw: `Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${message.text.replace(/\r?\n/g, '\r\n')}` };
    const composed = await this.composer.sendMail({ from: this.from, to: message.to, subject: message.subject, text, html: message.html, messageId: options.messageId, headers: unsubscribeHeaders(message) });
    const eml = composed.message as Buffer;
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = join(this.dir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
    // Written under a temporary name (flushed to disk) and renamed: a crash never leaves a partial .eml.
    const partial = `${file}.partial`;
    try {
      await writeFile(partial, eml, { mode: 0o600, flush: true });
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    if (this.development) {
      const link = firstLink(message.text);
      this.logger.log(`Mail to ${message.to} "${message.subject}" written to ${file}${link ? `; link: ${link}` : ''}`);
    } else {
      this.logger.log(`Mail to ${maskAddress(message.to)} "${message.subject}" written to ${file}`);
    }
  }
}
