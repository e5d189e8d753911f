import { Client } from 'pg';
import { DB_CLI, runUntilExit, startApp, type RunningApp } from './support/app-process';
import { createTestDatabase, REDIS_URL, testRedisPrefix, type TestDatabase } from './support/services';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy';
import { until } from './support/until';

interface Readyz {
  status: string;
  checks: Record<string, string>;
}

const readyz = async (app: RunningApp) => {
  const response = await fetch(`${app.url}/readyz`);
  return { status: response.status, body: (await response.json()) as Readyz };
};

/** The same database at another port: through the proxy the test can cut. */
const via = (url: string, proxy: TcpProxy) => {
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  return proxied.toString();
};

const serverErrorsRecorded = async (url: string) => {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const { rows } = await db.query<{ n: string }>(`select count(*) as n from error_reports where error_type = 'SERVER_ERROR'`);
    return Number(rows[0]!.n);
  } finally {
    await db.end();
  }
};

/**
 * What a newcomer and a load balancer see: the production build (NODE_ENV defaults to production)
 * on PostgreSQL and Redis reached through TCP proxies the test cuts and restores, as a network
 * fault or a restarting server would.
 */
describe('start-up and readiness on PostgreSQL and Redis', () => {
  const redisKeys = testRedisPrefix();
  let database: TestDatabase;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let app: RunningApp | undefined;

  beforeAll(async () => {
    // Empty: the first start migrates it.
    database = await createTestDatabase({ empty: true });
    const pg = new URL(database.url);
    pgProxy = await startTcpProxy({ host: pg.hostname, port: Number(pg.port || 5432) });
    const redis = new URL(REDIS_URL);
    redisProxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
  });

  afterAll(async () => {
    await app?.stop();
    await pgProxy?.close();
    await redisProxy?.close();
    await redisKeys.drop();
    await database?.drop();
  });

  it('migrates an empty database at start by default and says it is ready', async () => {
    app = await startApp({
      DATABASE_URL: via(database.url, pgProxy),
      REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`,
      REDIS_KEY_PREFIX: redisKeys.prefix,
      // Every request renders and queries: an outage shows on the page itself.
      PAGE_CACHE: 'false',
    });
    // /healthz answers as soon as it listens; the start-up line follows.
    await until('the start-up line', () => app!.stdout().includes('context":"Main"'));
    expect(app.stdout()).toContain('Site ready at');
    expect((await fetch(`${app.url}/levels/27`)).status).toBe(200);
    expect(await readyz(app)).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: 'up', migrations: 'up to date', redis: 'up', workers: 'none seen for 60 s' } },
    });
  });

  it('answers 503 with Retry-After on pages, the API and /readyz while the database is unreachable, and recovers by itself', async () => {
    pgProxy.cut();
    const page = await fetch(`${app!.url}/levels/27`);
    expect(page.status).toBe(503);
    expect(page.headers.get('retry-after')).toBe('5');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('An error occurred');

    const payload = await fetch(`${app!.url}/levels/27/_payload.json`);
    expect(payload.status).toBe(503);
    expect(payload.headers.get('retry-after')).toBe('5');

    const api = await fetch(`${app!.url}/api/v1/levels?query=key`);
    expect(api.status).toBe(503);
    expect(api.headers.get('retry-after')).toBe('5');
    expect(await api.json()).toEqual({ errors: ['The site is briefly unavailable; try again in a few seconds'], code: 'DATABASE.UNAVAILABLE' });

    expect(await readyz(app!)).toMatchObject({ status: 503, body: { status: 'unavailable', checks: { database: 'down' } } });

    pgProxy.restore();
    await until('the site to serve again', async () => {
      const statuses = await Promise.all(['/levels/27', '/api/v1/levels?query=key', '/readyz'].map((path) => fetch(`${app!.url}${path}`).then((r) => r.status)));
      return statuses.every((status) => status === 200);
    });
    // An outage is not a bug: nothing for the error store, no stack per request, and the process lived through it.
    expect(await serverErrorsRecorded(database.url)).toBe(0);
    await until('the outage logged', () => app!.stdout().includes('Database unavailable: answered 503'));
    expect(app!.stdout()).not.toContain('Unhandled error');
    expect(app!.process.exitCode).toBeNull();
  });

  it('stays ready (200, degraded) while only Redis is down: pages still work', async () => {
    redisProxy.cut();
    const degraded = await until('Redis to be reported down', async () => {
      const answer = await readyz(app!);
      return answer.body.checks.redis === 'down' && answer;
    });
    expect(degraded).toEqual({ status: 200, body: { status: 'degraded', checks: expect.objectContaining({ database: 'up', redis: 'down' }) } });
    expect((await fetch(`${app!.url}/levels/27`)).status).toBe(200);

    redisProxy.restore();
    await until('Redis to be back', async () => (await readyz(app!)).body.status === 'ready');
  });

  it('with MIGRATE_ON_START=false on a database that is behind: up but not ready, naming the migrations, until `npm run migrate`', async () => {
    await app?.stop();
    app = undefined;
    const behind = await createTestDatabase({ empty: true });
    try {
      app = await startApp({ DATABASE_URL: behind.url, MIGRATE_ON_START: 'false', CONTENT_IMPORT_ON_START: 'false' });
      const log = await until('the start-up line', () => app!.stdout().includes('context":"Main"') && app!.stdout());
      expect(log).not.toContain('Site ready');
      expect(log).toMatch(/Site up at \S+ \(postgres database\) but not ready \(\/readyz answers 503\): migrations: \d+ pending \(Migration20261122000000ErrorReports, /);
      expect(log).toContain('run `npm run migrate`');

      const before = await readyz(app);
      expect(before.status).toBe(503);
      expect(before.body.status).toBe('unavailable');
      expect(before.body.checks.database).toBe('up');
      expect(before.body.checks.migrations).toMatch(/^\d+ pending \(Migration20261122000000ErrorReports, .*\): run `npm run migrate`$/);

      expect((await runUntilExit({ DATABASE_URL: behind.url }, { script: DB_CLI, args: ['migrate'] })).code).toBe(0);
      // Checked again every few seconds: ready without a restart.
      const after = await until('readiness after the migration', async () => {
        const answer = await readyz(app!);
        return answer.status === 200 && answer;
      }, 30_000);
      expect(after.body).toEqual({ status: 'ready', checks: { database: 'up', migrations: 'up to date', redis: 'not configured' } });
    } finally {
      await app?.stop();
      app = undefined;
      await behind.drop();
    }
  });
});
