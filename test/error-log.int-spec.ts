import { MikroORM, RequestContext } from '@mikro-orm/core';
import { Test, type TestingModule } from '@nestjs/testing';
import { Client } from 'pg';
import { loadConfig } from 'src/config/app-config';
import { clientErrorReportSchema } from 'src/contracts/error-report';
import { ErrorLogService } from 'src/modules/error-log/application/error-log.service';
import { MikroOrmErrorReportRepository } from 'src/modules/error-log/adapters/persistence/mikro-orm-error-report-repository.adapter';
import { ErrorReportRepository } from 'src/modules/error-log/domain/error-report-repository.port';
import { ErrorLogModule } from 'src/modules/error-log/error-log.module';
import { PlatformModule } from 'src/platform/platform.module';
import { createTestDatabase, type TestDatabase } from './support/services';
import { until } from './support/until';

const clientReport = (message: string) => ({
  error: { error_type: 'CLIENT_ERROR' as const, origin_type: 1, message, backtrace: `Error\n    at ${message} (app.js:1:1)` },
});

/** The bounded error store on real PostgreSQL: concurrent reports and trims, and the server's own groups kept apart. */
describe('error log store on PostgreSQL', () => {
  let database: TestDatabase;
  let app: TestingModule;
  let sql: Client;
  let log: ErrorLogService;
  let repository: MikroOrmErrorReportRepository;
  const inContext = <T>(work: () => Promise<T>) => RequestContext.create(app.get(MikroORM).em, work);

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: database.url, MIGRATE_ON_START: 'true' });
    app = await Test.createTestingModule({ imports: [PlatformModule.forRoot(config, { structuredLogs: false }), ErrorLogModule] }).compile();
    await app.init();
    log = app.get(ErrorLogService);
    repository = app.get(ErrorReportRepository) as MikroOrmErrorReportRepository;
    sql = new Client({ connectionString: database.url });
    await sql.connect();
  });

  afterAll(async () => {
    await sql?.end();
    await app?.close();
    await database?.drop();
  });

  beforeEach(() => sql.query('delete from error_reports'));

  it('trims without ever waiting on a row a report holds, so a report and a trim cannot deadlock', async () => {
    const insert = (fingerprint: string, lastSeen: string) =>
      sql.query(
        `insert into error_reports (fingerprint, error_type, origin_type, message, count, first_seen_at, last_seen_at)
         values ($1, 'CLIENT_ERROR', 1, $2, 1, $3, $3)`,
        [fingerprint.padEnd(64, '0'), fingerprint, lastSeen],
      );
    for (const f of ['recent1', 'recent2']) await insert(f, '2026-01-01T00:00:00Z');
    for (const f of ['old1', 'old2', 'old3', 'held']) await insert(f, '2020-01-01T00:00:00Z');
    // A report is counting 'held' (its row locked); the trim starts and wants the old rows, 'held' among them.
    const reporter = new Client({ connectionString: database.url });
    await reporter.connect();
    try {
      await reporter.query('begin');
      await reporter.query(`update error_reports set count = count + 1 where fingerprint = $1`, ['held'.padEnd(64, '0')]);
      let trimError: unknown;
      let trimmed = false;
      const trim = repository.trim({ client: 2, server: 2 }).then(
        () => (trimmed = true),
        (error: unknown) => (trimError = error),
      );
      const waiting = async () => {
        const { rows } = await sql.query(`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like 'delete from error_reports%'`);
        return rows.length > 0;
      };
      await until('the trim to finish or wait on a lock', async () => trimmed || trimError !== undefined || (await waiting()));
      // The same report now counts another old group: with a trim holding it and waiting on 'held', that is a deadlock.
      const second = await reporter
        .query(`update error_reports set count = count + 1 where fingerprint = $1`, ['old1'.padEnd(64, '0')])
        .then(() => 'ok', (error: Error) => error.message);
      await reporter.query(second === 'ok' ? 'commit' : 'rollback');
      await trim;
      expect({ second, trimError: trimError === undefined ? undefined : String(trimError) }).toEqual({ second: 'ok', trimError: undefined });
    } finally {
      await reporter.end();
    }
  });

  it('records and trims concurrently without a deadlock (every report is stored or counted)', async () => {
    // Reports of the same and of different errors while trims run: a trim must never wait on a row a report holds.
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 400; i++) {
      work.push(inContext(() => log.recordClientReport(clientReport(`e${'x'.repeat(i % 40)}`))));
      if (i % 5 === 0) work.push(inContext(() => repository.trim({ client: 10, server: 10 })));
    }
    const results = await Promise.allSettled(work);
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    await repository.trim({ client: 10, server: 10 });
    const { rows } = await sql.query<{ n: string }>('select count(*) as n from error_reports');
    expect(Number(rows[0]!.n)).toBeLessThanOrEqual(10);
  });

  it('refuses a browser report that claims to be a server error', () => {
    expect(clientErrorReportSchema.safeParse({ error: { error_type: 'SERVER_ERROR', origin_type: 0, message: 'forged' } }).success).toBe(false);
  });

  it('keeps the server’s own error groups when a flood of client reports passes the bound', async () => {
    await inContext(() => log.recordServerError(new Error('database exploded'), '/levels/27'));
    for (let i = 0; i < 60; i++) await inContext(() => log.recordClientReport(clientReport(`flood ${'x'.repeat(i)}`)));
    await repository.trim({ client: 20, server: 20 });
    const server = await inContext(() => log.latest(10, ['SERVER_ERROR']));
    expect(server.map((r) => r.message)).toEqual(['database exploded']);
    const { rows } = await sql.query<{ n: string }>(`select count(*) as n from error_reports where error_type <> 'SERVER_ERROR'`);
    expect(Number(rows[0]!.n)).toBe(20);
  });
});
