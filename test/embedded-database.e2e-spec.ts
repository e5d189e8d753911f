import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, copyFile, link, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { EmbeddedPostgres } from 'src/platform/database/embedded-postgres';
import sharp from 'sharp';
import type { CreditsView } from 'src/contracts/billing';
import type { ImageJobView } from 'src/contracts/images';
import { runUntilExit, startApp } from './support/app-process';
import { linkToken } from './support/mail-sink';
import { startSite } from './support/site';
import { until } from './support/until';

/**
 * The project's Node binary where another user can run it. It lives in the clone's node_modules,
 * and a clone may sit in a directory only its owner can enter (`git clone` into `mktemp -d`).
 */
async function nodeForNobody(): Promise<{ path: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'guides-node-'));
  const path = join(dir, 'node');
  await link(process.execPath, path).catch(() => copyFile(process.execPath, path));
  await chmod(path, 0o755);
  await chmod(dir, 0o755);
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Tries a raw connection to the database at `url` as another user (nobody); answers what happened. */
async function connectAsNobody(url: string): Promise<string> {
  const parsed = new URL(url);
  const socketDir = parsed.searchParams.get('host');
  const target = socketDir ? { path: `${socketDir}/.s.PGSQL.${parsed.port}` } : { host: parsed.hostname, port: Number(parsed.port) };
  const script = `const s = require('node:net').connect(${JSON.stringify(target)});
    s.on('connect', () => { console.log('connected'); process.exit(0); });
    s.on('error', (e) => { console.log(e.code); process.exit(0); });`;
  const node = await nodeForNobody();
  try {
    const child = spawn(node.path, ['-e', script], { uid: 65534, gid: 65534, cwd: '/', stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await once(child, 'exit');
    return out.trim();
  } finally {
    await node.remove();
  }
}

describe('the embedded database belongs to one process', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'guides-embedded-lock-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('refuses a second process on the same DATA_DIR (naming the holder) while the first keeps serving; a stopped or killed holder frees it', async () => {
    const first = await startApp({ DATA_DIR: dir });
    try {
      const second = await runUntilExit({ DATA_DIR: dir });
      expect(second.code).not.toBe(0);
      expect(second.output).toContain(`in use by process ${first.process.pid}`);
      expect((await fetch(`${first.url}/api/v1/levels`)).status).toBe(200);
    } finally {
      expect(await first.stop()).toBe(0);
    }

    // Stopped cleanly: the next start opens it.
    const next = await startApp({ DATA_DIR: dir });
    expect((await fetch(`${next.url}/api/v1/levels`)).status).toBe(200);
    next.process.kill('SIGKILL');
    await next.stop();

    // Killed -9: its lock is stale, and the next start takes it over.
    const after = await startApp({ DATA_DIR: dir });
    try {
      expect((await fetch(`${after.url}/api/v1/levels`)).status).toBe(200);
    } finally {
      await after.stop();
    }
  }, 240_000); // four starts of the embedded database, one after another
});

describe('the embedded database server', () => {
  it('is reachable by this user through the ordinary driver, and by no other user', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'guides-embedded-auth-'));
    const embedded = await EmbeddedPostgres.start(join(dir, 'pglite'));
    try {
      const client = new Client({ connectionString: embedded.url });
      await client.connect();
      expect((await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
      await client.end();

      expect(await connectAsNobody(embedded.url)).toBe('EACCES');
    } finally {
      await embedded.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('image jobs on the embedded database (no Redis: the web process converts)', () => {
  it('runs again, after a kill -9 and a restart, the job that was converting, and charges it one credit', async () => {
    const site = await startSite({ database: 'embedded', mail: true, env: { HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true', TRIAL_CREDITS: '2' } });
    try {
      const json = { 'content-type': 'application/json' };
      const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${base}${path}`, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(body) });
      const email = 'embedded-artist@example.com';
      const password = 'a long enough password 42';
      expect((await post(site.url, '/auth/sign_up', { email, password, password_confirmation: password })).status).toBe(202);
      const token = linkToken(await site.mail!.waitFor(email, /Confirm your email/), '/auth/confirm');
      expect((await post(site.url, '/auth/confirm', { token })).status).toBe(200);
      const signedIn = await post(site.url, '/auth/sign_in', { email, password });
      expect(signedIn.status).toBe(200);
      const auth = { authorization: signedIn.headers.get('authorization')! };

      // Big enough to be converting when the process is killed.
      const image = await sharp({ create: { width: 256, height: 256, channels: 3, background: { r: 40, g: 120, b: 200 } } }).png().toBuffer();
      const form = new FormData();
      form.append('conversion', 'ai-2x');
      form.append('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'photo.png');
      const accepted = await fetch(`${site.url}/api/v1/images`, { method: 'POST', headers: auth, body: form });
      expect(accepted.status).toBe(202);
      const { id } = (await accepted.json()) as ImageJobView;
      const job = async (base: string) => (await (await fetch(`${base}/api/v1/images/${id}`, { headers: auth })).json()) as ImageJobView;
      await until('the job to be converting', async () => (await job(site.url)).status === 'running', 60_000, 100);
      site.app.process.kill('SIGKILL');
      await site.app.stop();

      const restarted = await site.startApp();
      const done = await until('the job to finish', async () => {
        const now = await job(restarted.url);
        return now.status === 'succeeded' || now.status === 'failed' ? now : undefined;
      }, 120_000, 500);
      expect(done.status).toBe('succeeded');
      const credits = (await (await fetch(`${restarted.url}/api/v1/credits`, { headers: auth })).json()) as CreditsView;
      expect(credits.balance).toBe(1);
    } finally {
      await site.close();
    }
  }, 300_000);
});
