import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig } from 'src/config/app-config';
import { PlatformModule } from 'src/platform/platform.module';
import { OutboxMailSchema, type OutboxMail } from 'src/platform/mail/mail-outbox.entity';
import { BullmqJobWorkers } from 'src/platform/queue/bullmq-job-workers';
import { JobProcessors } from 'src/platform/queue/job-processors';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import { JobRetryPolicy } from 'src/platform/queue/job-retry-policy';
import { JOB_NAMES } from 'src/platform/queue/jobs';
import { QueueModule } from 'src/platform/queue/queue.module';
import { PermanentJobError } from 'src/platform/queue/queue.errors';
import { createTestDatabase, REDIS_URL, testRedisPrefix, type TestDatabase } from './support/services';
import { until } from './support/until';

/** What a processor saw: the row as its context loaded it, and that context's EntityManager. */
interface Seen {
  job: string;
  row: OutboxMail;
  em: EntityManager;
}

/**
 * Every job runs in a MikroORM context that JobProcessors.run opens for it (the processors open
 * none): no two jobs share an identity map, and none uses the global EntityManager, in the web
 * process's in-process queue and in the BullMQ worker alike.
 */
describe.each([
  ['the in-process queue (no Redis)', false],
  ['the BullMQ worker', true],
])('job contexts in %s', (_name, withRedis) => {
  const redis = testRedisPrefix();
  let database: TestDatabase;
  let app: TestingModule;
  let global: EntityManager;
  let rowId: string;
  const seen: Seen[] = [];

  /** Loads the row through the injected (global) EntityManager, which resolves to the current context. */
  const load = async (job: string) => {
    const row = await global.findOneOrFail(OutboxMailSchema, { id: rowId });
    seen.push({ job, row, em: global.getContext() as EntityManager });
  };

  beforeAll(async () => {
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    database = await createTestDatabase();
    const config = loadConfig({}, { DATABASE_URL: database.url, ...(withRedis ? { REDIS_URL, REDIS_KEY_PREFIX: redis.prefix } : {}) });
    app = await Test.createTestingModule({
      imports: [PlatformModule.forRoot(config, { structuredLogs: false }), QueueModule, MikroOrmModule.forFeature([OutboxMailSchema])],
      providers: [
        ...(withRedis ? [BullmqJobWorkers] : []),
        {
          provide: 'test-processors',
          inject: [JobProcessors],
          useFactory: (processors: JobProcessors) => {
            processors.register('guide-report.notify', ({ reportId }) => load(reportId));
            processors.register('image.convert', () => Promise.reject(new PermanentJobError('not an image')), { onFailed: ({ jobId }) => load(`failed ${jobId}`) });
            // The worker refuses to start while a job of the registry has no processor.
            for (const name of JOB_NAMES.filter((job) => job !== 'guide-report.notify' && job !== 'image.convert')) {
              processors.register(name, () => Promise.reject(new Error('not in this test')));
            }
          },
        },
      ],
    })
      .overrideProvider(JobRetryPolicy)
      .useValue({ of: () => ({ attempts: 1, backoff: { type: 'fixed', delayMs: 10 } }) })
      .compile();
    await app.init();
    global = app.get(EntityManager);
    const em = global.fork();
    const row = em.create(OutboxMailSchema, { to: 'player@example.com', subject: 'as written', text: 't', html: 'h', createdAt: new Date() });
    await em.flush();
    rowId = row.id;
  });

  afterAll(async () => {
    await app?.close();
    await redis.drop();
    await database?.drop();
    jest.restoreAllMocks();
  });

  const runJob = async (job: string) => {
    await app.get(JobQueue).enqueue('guide-report.notify', { reportId: job });
    return until(`job ${job} to load the row`, () => seen.find((s) => s.job === job));
  };

  it('gives each job a fresh context: a row another writer changed between two jobs is read again, not taken from the first job\'s identity map', async () => {
    const first = await runJob(randomUUID());
    expect(first.row.subject).toBe('as written');
    await global.fork().nativeUpdate(OutboxMailSchema, { id: rowId }, { subject: 'changed since' });

    const second = await runJob(randomUUID());
    expect(second.row.subject).toBe('changed since');
    expect(second.row).not.toBe(first.row);
    expect(second.em).not.toBe(first.em);
    for (const { em } of [first, second]) expect(em).not.toBe(global);
  });

  it("runs a job that failed for good through its module's failure handler, in a context of its own too", async () => {
    const jobId = randomUUID();
    await app.get(JobQueue).enqueue('image.convert', { jobId });
    const failed = await until('the failure handler to load the row', () => seen.find((s) => s.job === `failed ${jobId}`));
    expect(failed.row.subject).toBe('changed since');
    expect(failed.em).not.toBe(global);
    expect(seen.filter((s) => s.em === failed.em)).toHaveLength(1);
  });
});
