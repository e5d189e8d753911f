import { Test } from '@nestjs/testing';
import { FEATURE_MODULES } from 'src/app.module';
import { loadConfig } from 'src/config/app-config';
import { AuthGuardsModule } from 'src/modules/auth/auth-guards.module';
import { MailOutbox } from 'src/platform/mail/mail-outbox.port';
import { MailModule } from 'src/platform/mail/mail.module';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import { QueueModule } from 'src/platform/queue/queue.module';
import { PlatformModule } from 'src/platform/platform.module';
import { RedisConnection, RedisModule } from 'src/platform/redis/redis.module';
import { createTestDatabase, REDIS_URL, type TestDatabase } from './support/services';

/**
 * Every module states what it depends on: each builds with nothing but the platform (config and
 * database) and its own imports. A module that leaned on a global provider would fail here the way
 * a CLI loading fewer modules once did.
 */
describe('module dependencies', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  const config = () => loadConfig({ NODE_ENV: 'test', DATABASE_URL: db.url, REDIS_URL, HAS_LOGIN: 'true', HAS_PAYMENT: 'true', MIGRATE_ON_START: 'true' });

  it.each([...FEATURE_MODULES, AuthGuardsModule, MailModule, QueueModule, RedisModule].map((m) => [m.name, m] as const))(
    '%s builds on the platform alone',
    async (_name, feature) => {
      const app = await Test.createTestingModule({ imports: [PlatformModule.forRoot(config(), { structuredLogs: false }), feature] }).compile();
      await app.init();
      await app.close();
    },
  );

  it('the guards module needs no Redis, queue or mail', async () => {
    const app = await Test.createTestingModule({ imports: [PlatformModule.forRoot(config(), { structuredLogs: false }), AuthGuardsModule] }).compile();
    expect(() => app.get(RedisConnection, { strict: false })).toThrow();
    expect(() => app.get(JobQueue, { strict: false })).toThrow();
    expect(() => app.get(MailOutbox, { strict: false })).toThrow();
    await app.close();
  });
});
