import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort, ROOT, startApp } from './support/app-process';
import { createTestDatabase } from './support/services';
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
  it('stops accepting, lets a request in flight finish with 200, then closes the database and exits 0', async () => {
    const database = await createTestDatabase();
    const app = await startApp({ DATABASE_URL: database.url, MIGRATE_ON_START: 'true' });
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
      expect(app.output()).not.toMatch(/Shutdown failed|SERVER_ERROR|Requests still running/);
    } finally {
      await locker.end().catch(() => undefined);
      await app.stop();
      await database.drop();
    }
  });
});

describe('npm start and SIGTERM to npm only', () => {
  it('passes the signal to the web process and exits 0 once it has shut down, leaving no process behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'guides-npm-term-'));
    // On PostgreSQL: the signal's path, not the database, is the point.
    const database = await createTestDatabase();
    const port = await freePort();
    const npm = spawn('npm', ['--silent', 'start'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dir, DATABASE_URL: database.url, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(npm, 'exit').then(([code]) => code as number | null);
    const groupAlive = () => {
      try {
        process.kill(-npm.pid!, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      await until('the site to answer', () => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false), 120_000);
      npm.kill('SIGTERM'); // npm only, not its group
      expect(await exited).toBe(0);
      expect(output).toContain('SIGTERM received: shutting down');
      // npm waited for the web process: nothing of the group is left running.
      await until('the group to be gone', () => !groupAlive(), 5_000);
    } finally {
      if (groupAlive()) process.kill(-npm.pid!, 'SIGKILL');
      await rm(dir, { recursive: true, force: true });
      await database.drop();
    }
  });
});
