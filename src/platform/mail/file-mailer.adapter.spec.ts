import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { loadConfig } from 'src/config/app-config';
import { FileMailer, firstLink } from './file-mailer.adapter';

// Lets a test cut a file write off half-way, as a crash would.
const cutWrites = { on: false };
jest.mock('node:fs/promises', () => {
  const actual = jest.requireActual<typeof import('node:fs/promises')>('node:fs/promises');
  return {
    ...actual,
    writeFile: async (...args: Parameters<typeof actual.writeFile>) => {
      if (!cutWrites.on) return actual.writeFile(...args);
      const [path, data, options] = args;
      await actual.writeFile(path, (data as Buffer).subarray(0, 10), options);
      throw new Error('crashed mid-write');
    },
  };
});

describe('FileMailer', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'guides-mail-'));
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('writes one .eml per message under DATA_DIR/mail and, in development, logs the recipient, subject, file and first link', async () => {
    const lines: string[] = [];
    jest.spyOn(Logger.prototype, 'log').mockImplementation((message: unknown) => void lines.push(String(message)));
    const mailer = new FileMailer(loadConfig({}, { NODE_ENV: 'development', DATA_DIR: dataDir, SITE_NAME: 'Test Guide', PUBLIC_URL: 'https://guides.example' }));
    const link = 'https://guides.example/auth/confirm#token=AbC_123-xyz';

    await mailer.send({
      to: 'player@example.com',
      subject: 'Confirm your email',
      text: `Welcome!\n\nConfirm my email: ${link}.\n\nOr visit http://other.example/`,
      html: `<p>Welcome! <a href="${link}">Confirm</a></p>`,
    });

    const dir = join(dataDir, 'mail');
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const file = join(dir, files[0]!);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const eml = await readFile(file, 'utf8');
    expect(eml).toContain('To: player@example.com');
    expect(eml).toContain('From: Test Guide <no-reply@guides.example>');
    expect(eml).toContain('Subject: Confirm your email');
    expect(eml).toContain('Content-Type: text/plain');
    expect(eml).toContain('Content-Type: text/html');
    // The text part as written, so the link copied from the file is whole (no quoted-printable "=3D" or "=" line breaks).
    expect(eml).toContain('Content-Transfer-Encoding: 8bit');
    expect(eml).toContain(`Confirm my email: ${link}.`);

    expect(lines).toEqual([`Mail to player@example.com "Confirm your email" written to ${file}; link: ${link}`]);
  });

  it.each(['production', 'test'])('with NODE_ENV=%s logs neither the link nor the full address (the link is in the file)', async (env) => {
    const lines: string[] = [];
    jest.spyOn(Logger.prototype, 'log').mockImplementation((message: unknown) => void lines.push(String(message)));
    const mailer = new FileMailer(loadConfig({}, { NODE_ENV: env, DATA_DIR: dataDir, PUBLIC_URL: 'https://guides.example' }));
    const link = 'https://guides.example/auth/password_reset#token=Secret_Reset_Token_123';

    await mailer.send({ to: 'player@example.com', subject: 'Reset your password', text: `Reset: ${link}`, html: `<a href="${link}">Reset</a>` });

    const [file] = await readdir(join(dataDir, 'mail'));
    expect(lines).toEqual([`Mail to p***@example.com "Reset your password" written to ${join(dataDir, 'mail', file!)}`]);
    expect(lines.join('\n')).not.toContain('Secret_Reset_Token_123');
    expect(lines.join('\n')).not.toContain('player@example.com');
  });

  it('logs the recipient and the link in the local try-out (nothing configured), where the newcomer reads the terminal', async () => {
    const lines: string[] = [];
    jest.spyOn(Logger.prototype, 'log').mockImplementation((message: unknown) => void lines.push(String(message)));
    const mailer = new FileMailer(loadConfig({ DATA_DIR: dataDir }));
    const link = `http://localhost:3000/auth/confirm#token=${'T'.repeat(43)}`;
    await mailer.send({ to: 'new@example.com', subject: 'Confirm your email', text: `Confirm: ${link}`, html: `<a href="${link}">Confirm</a>` });
    expect(lines.join('\n')).toContain(`link: ${link}`);
    const [file] = await readdir(join(dataDir, 'mail'));
    expect(await readFile(join(dataDir, 'mail', file!), 'utf8')).toContain(link);
  });

  it('never leaves a partial .eml when a write is cut off', async () => {
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const mailer = new FileMailer(loadConfig({}, { DATA_DIR: dataDir }));
    cutWrites.on = true;
    try {
      await expect(mailer.send({ to: 'player@example.com', subject: 'Hi', text: 'Hello there', html: '<p>Hello there</p>' })).rejects.toThrow('crashed mid-write');
    } finally {
      cutWrites.on = false;
    }
    expect(await readdir(join(dataDir, 'mail'))).toEqual([]);
  });

  it('finds the first http(s) link of a text', () => {
    expect(firstLink('Open (https://a.example/x?y=1#t=2), then http://b.example')).toBe('https://a.example/x?y=1#t=2');
    expect(firstLink('No link here')).toBeUndefined();
  });
});
