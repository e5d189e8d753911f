import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import { Test } from '@nestjs/testing';
import { type AppConfig, loadConfig } from 'src/config/app-config';
import { PlatformModule } from 'src/platform/platform.module';
import { ErrorLogService } from 'src/modules/error-log/application/error-log.service';
import { ErrorLogModule } from 'src/modules/error-log/error-log.module';
import { MikroOrmErrorReportRepository } from 'src/modules/error-log/adapters/persistence/mikro-orm-error-report-repository.adapter';
import { ErrorReportRepository } from 'src/modules/error-log/domain/error-report-repository.port';
import { createTestDatabase, type TestDatabase } from './support/services';

/** Boots just the database platform and the error-log module, as the web process does. */
async function boot(config: AppConfig) {
  const moduleRef = await Test.createTestingModule({
    imports: [PlatformModule.forRoot(config, { structuredLogs: false }), ErrorLogModule],
  }).compile();
  return moduleRef.init();
}

/** Runs work in its own unit of work, as each HTTP request and each job does. */
const inContext = <T>(app: Awaited<ReturnType<typeof boot>>, work: () => Promise<T>) =>
  RequestContext.create(app.get(MikroORM).em, work);

const report = (message: string, email?: string) => ({
  error: { error_type: 'CLIENT_ERROR' as const, origin_type: 1, message, backtrace: 'Error\n    at x (a.js:1:1)', user_email: email },
});

describe.each(['postgres', 'embedded'] as const)('database platform on %s', (kind) => {
  let database: TestDatabase | undefined;
  let dataDir: string;
  let config: AppConfig;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'guides-db-'));
    if (kind === 'postgres') database = await createTestDatabase({ empty: true });
    config = loadConfig(kind === 'postgres' ? { DATABASE_URL: database!.url, NODE_ENV: 'test' } : { DATA_DIR: dataDir });
  });

  afterAll(async () => {
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('applies the migrations at start and groups concurrent reports of one error', async () => {
    const app = await boot(config);
    try {
      const errorLog = app.get(ErrorLogService);
      // Twenty simultaneous reports of the same bug are one group counted twenty times.
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => inContext(app, () => errorLog.recordClientReport(report(`Level ${i} broke`)))),
      );
      await inContext(app, () => errorLog.recordClientReport(report('Another bug', 'player@example.com')));
      const latest = await inContext(app, () => errorLog.latest(10));
      expect(latest).toHaveLength(2);
      expect(latest.find((r) => r.message.startsWith('Level'))?.count).toBe(20);
      expect(latest[0]).toMatchObject({ message: 'Another bug', userEmail: 'player@example.com', count: 1 });
    } finally {
      await app.close();
    }
  });

  it('keeps the data across a restart', async () => {
    const app = await boot(config);
    try {
      const latest = await inContext(app, () => app.get(ErrorLogService).latest(10));
      expect(latest.map((r) => r.count).sort((a, b) => a - b)).toEqual([1, 20]);
    } finally {
      await app.close();
    }
  });

  it('records server errors in the same store and stays bounded', async () => {
    const app = await boot(config);
    try {
      const errorLog = app.get(ErrorLogService);
      await inContext(app, () => errorLog.recordServerError(new Error('relation "x" does not exist'), '/levels/27'));
      await inContext(app, () => errorLog.recordServerError(new Error('relation "x" does not exist'), '/levels/33'));
      const [server] = (await inContext(app, () => errorLog.latest(10))).filter((r) => r.errorType === 'SERVER_ERROR');
      expect(server).toMatchObject({ count: 2, originType: 0, message: 'relation "x" does not exist' });

      const repository = app.get(ErrorReportRepository) as MikroOrmErrorReportRepository;
      await inContext(app, () => repository.trim({ client: 1, server: 1 }));
      const kept = await inContext(app, () => errorLog.latest(10));
      expect(kept).toHaveLength(2);
      expect(kept[0]!.errorType).toBe('SERVER_ERROR');
    } finally {
      await app.close();
    }
  });
});
