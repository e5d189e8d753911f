import { EntityManager } from '@mikro-orm/postgresql';
import { MigrationStatus } from 'src/platform/database/migration-status.service';
import { testConfig, useControllers } from 'src/platform/http/testing/controller-harness';
import { WorkerWatch } from 'src/platform/queue/worker-heartbeat.service';
import { RedisConnection } from 'src/platform/redis/redis.module';
import { HealthController } from './health.controller';
import { Readiness } from './readiness.service';

/**
 * Readiness reads MikroORM itself (no port of its own): the database stands in here as the two
 * calls it makes, answering, refusing, or behind on migrations. test/readiness.e2e-spec.ts runs the
 * real checks against PostgreSQL and Redis going away.
 */
describe('HealthController (in process)', () => {
  let database: { up: boolean; pending: string[] };
  beforeEach(() => {
    database = { up: true, pending: [] };
  });
  const api = useControllers(() => ({
    controllers: [HealthController],
    providers: [
      Readiness,
      WorkerWatch,
      RedisConnection,
      { provide: EntityManager, useValue: { getConnection: () => ({ execute: async () => (database.up ? [{ '?column?': 1 }] : Promise.reject(new Error('ECONNREFUSED'))) }) } },
      { provide: MigrationStatus, useValue: { pending: async () => database.pending } },
    ],
    config: testConfig(),
  }));

  it('is alive whatever the database says', async () => {
    database.up = false;
    const alive = await api.inject({ method: 'GET', url: '/healthz' });
    expect([alive.statusCode, alive.json()]).toEqual([200, { status: 'ok' }]);
  });

  it('is ready with the database up and its schema current (Redis not configured), never cached', async () => {
    const ready = await api.inject({ method: 'GET', url: '/readyz' });
    expect([ready.statusCode, ready.headers['cache-control'], ready.json()]).toEqual([200, 'no-store', { status: 'ready', checks: { database: 'up', migrations: 'up to date', redis: 'not configured' } }]);
  });

  it('answers 503 while the database is down or behind on migrations, saying which', async () => {
    database.up = false;
    const down = await api.inject({ method: 'GET', url: '/readyz' });
    expect([down.statusCode, down.json()]).toEqual([503, { status: 'unavailable', checks: { database: 'down', migrations: 'unknown', redis: 'not configured' } }]);
    database.up = true;
    database.pending = ['Migration20261201'];
    const behind = await api.inject({ method: 'GET', url: '/readyz' });
    expect([behind.statusCode, behind.json().checks.migrations]).toEqual([503, '1 pending (Migration20261201): run `npm run migrate`']);
  });
});
