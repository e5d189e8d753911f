import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import sharp from 'sharp';
import type { ImageJobView } from 'src/contracts/images';
import { freePort, ROOT, startApp } from './support/app-process';
import { createTestDatabase, REDIS_URL, testRedisPrefix } from './support/services';
import { useSite } from './support/site';
import { until } from './support/until';

/** Whether a new TCP connection to the port is refused. */
const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

describe('web process shutdown (SIGTERM)', () => {
  it('stops accepting, lets a request in flight finish with 200, then closes the database and Redis and exits 0', async () => {
    const database = await createTestDatabase();
    const redis = testRedisPrefix();
    const app = await startApp({ DATABASE_URL: database.url, MIGRATE_ON_START: 'true', REDIS_URL, REDIS_KEY_PREFIX: redis.prefix });
    const locker = new Client({ connectionString: database.url });
    await locker.connect();
    try {
      // A slow request: the level API waits on a lock the test holds.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE levels IN ACCESS EXCLUSIVE MODE');
      const inFlight = fetch(`${app.url}/api/v1/levels`).then(async (r) => ({ status: r.status, body: await r.text() }));
      await until('the request to wait on the lock', async () => {
        const { rows } = await locker.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'levels'::regclass AND NOT granted`);
        return rows[0]!.n > 0;
      });

      const exited = once(app.process, 'exit').then(([code]) => code as number | null);
      app.process.kill('SIGTERM');
      await until('new connections to be refused', () => refused(app.port));
      expect(app.process.exitCode).toBeNull(); // still draining

      await locker.query('COMMIT');
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(await exited).toBe(0);
      expect(app.stdout()).toContain('SIGTERM received: shutting down');
      expect(app.output()).not.toMatch(/Shutdown failed|SERVER_ERROR|Requests still running/);
    } finally {
      await locker.end().catch(() => undefined);
      await app.stop();
      await database.drop();
      await redis.drop();
    }
  });
});

/** An npm script started as a terminal or a supervisor starts it: npm leading a process group of its own. */
function npmGroup(args: string[], env: Record<string, string>) {
  const npm = spawn('npm', ['--silent', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const groupAlive = () => {
    try {
      process.kill(-npm.pid!, 0);
      return true;
    } catch {
      return false;
    }
  };
  return {
    npm,
    output: () => output,
    exited: once(npm, 'exit').then(([code]) => code as number | null),
    groupAlive,
    /** As Ctrl-C in a terminal, or a supervisor signalling the group: npm and its script each get it (and npm passes it on). */
    signalGroup: (signal: NodeJS.Signals) => process.kill(-npm.pid!, signal),
    kill: () => groupAlive() && process.kill(-npm.pid!, 'SIGKILL'),
  };
}

describe('npm start and SIGTERM to npm only', () => {
  it('passes the signal to the web process and exits 0 once it has shut down, leaving no process behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'guides-npm-term-'));
    // On PostgreSQL: the signal's path, not the database, is the point.
    const database = await createTestDatabase();
    const port = await freePort();
    const group = npmGroup(['start'], { DATA_DIR: dir, DATABASE_URL: database.url, PORT: String(port) });
    try {
      await until('the site to answer', () => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false), 120_000);
      group.npm.kill('SIGTERM'); // npm only, not its group
      expect(await group.exited).toBe(0);
      // Its pipes may deliver the last lines after npm's exit.
      await until('the shutdown line', () => group.output().includes('SIGTERM received: shutting down'));
      // npm waited for the web process: nothing of the group is left running.
      await until('the group to be gone', () => !group.groupAlive(), 5_000);
    } finally {
      group.kill();
      await rm(dir, { recursive: true, force: true });
      await database.drop();
    }
  });
});

describe('signals to npm\'s process group, twice (Ctrl-C, a supervisor)', () => {
  it('npm start: a request in flight still finishes with 200, then the group exits 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'guides-npm-group-'));
    const database = await createTestDatabase();
    const port = await freePort();
    const group = npmGroup(['start'], { DATA_DIR: dir, DATABASE_URL: database.url, PORT: String(port) });
    const locker = new Client({ connectionString: database.url });
    await locker.connect();
    try {
      await until('the site to answer', () => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false), 120_000);
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE levels IN ACCESS EXCLUSIVE MODE');
      const inFlight = fetch(`http://127.0.0.1:${port}/api/v1/levels`).then((r) => r.status);
      await until('the request to wait on the lock', async () => {
        const { rows } = await locker.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'levels'::regclass AND NOT granted`);
        return rows[0]!.n > 0;
      });
      group.signalGroup('SIGINT');
      await until('the site to start shutting down', () => group.output().includes('SIGINT received: shutting down'));
      group.signalGroup('SIGINT'); // pressed again
      await until('the repeat to be noticed', () => group.output().includes('SIGINT received again'));
      expect(group.groupAlive()).toBe(true); // still draining
      await locker.query('COMMIT');
      expect(await inFlight).toBe(200);
      await until('the group to be gone', () => !group.groupAlive(), 30_000);
      expect(group.output()).not.toMatch(/Shutdown failed|Requests still running/);
    } finally {
      await locker.end().catch(() => undefined);
      group.kill();
      await rm(dir, { recursive: true, force: true });
      await database.drop();
    }
  }, 180_000);

  describe('npm run worker', () => {
    const ADMIN = 'signals-admin@example.com';
    const site = useSite({
      redis: true,
      env: { HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true', TRIAL_CREDITS: '0', ADMIN_EMAILS: ADMIN, NODE_ENV: 'production', MIGRATE_ON_START: 'true' },
    });

    it('finishes the job it is converting and charges it once, then the group exits', async () => {
      const email = 'signals-artist@example.com';
      const [admin, token] = [await site.signedInUser(ADMIN), await site.signedInUser(email)];
      const call = (path: string, bearer: string, body: FormData | object) =>
        fetch(`${site.url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, ...(body instanceof FormData ? {} : { 'content-type': 'application/json' }) },
          body: body instanceof FormData ? body : JSON.stringify(body),
        });
      expect((await call('/api/v1/admin/credits', admin, { email, credits: 2, validity_days: 30, reason: 'Signals test' })).status).toBe(201);
      const group = npmGroup(['run', 'worker'], site.env);
      try {
        await until('the worker to be ready', () => group.output().includes('Worker ready'), 120_000);
        // Big enough to still be converting when the signals arrive.
        const image = await sharp({ create: { width: 256, height: 256, channels: 3, background: { r: 40, g: 120, b: 200 } } }).png().toBuffer();
        const form = new FormData();
        form.append('conversion', 'ai-2x');
        form.append('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'photo.png');
        const answer = await call('/api/v1/images', token, form);
        expect(answer.status).toBe(202);
        const { id } = (await answer.json()) as ImageJobView;
        const db = await site.db();
        const row = async () => (await db.query<{ status: string }>(`select status from image_jobs where id = $1`, [id])).rows[0]!.status;
        await until('the job to be converting', async () => (await row()) === 'running');
        group.signalGroup('SIGTERM');
        group.signalGroup('SIGTERM');
        expect(await group.exited).toBe(0);
        // Nothing else runs jobs here: it finished before the worker exited, or never will.
        expect(await row()).toBe('succeeded');
        const charges = await db.query(`select state from credit_charges where idempotency_key = $1`, [`image-job:${id}`]);
        expect(charges.rows).toEqual([{ state: 'captured' }]);
        await until('the shutdown line', () => group.output().includes('SIGTERM received: finishing running jobs'));
      } finally {
        group.kill();
      }
    }, 180_000);
  });
});
