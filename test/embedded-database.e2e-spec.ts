import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, copyFile, link, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { EmbeddedPostgres } from 'src/platform/database/embedded-postgres';
import { runUntilExit, startApp } from './support/app-process';

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
