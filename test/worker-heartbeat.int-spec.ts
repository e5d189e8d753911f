import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test, type TestingModule } from '@nestjs/testing';
import { loadConfig, type AppConfig } from 'src/config/app-config';
import { ErrorLogModule } from 'src/modules/error-log/error-log.module';
import { HealthModule } from 'src/platform/health/health.module';
import { PlatformModule } from 'src/platform/platform.module';
import { BullmqJobQueue } from 'src/platform/queue/bullmq-job-queue.adapter';
import { BullmqJobWorkers } from 'src/platform/queue/bullmq-job-workers';
import { JobProcessors } from 'src/platform/queue/job-processors';
import { JobRetryPolicy } from 'src/platform/queue/job-retry-policy';
import { JOB_NAMES } from 'src/platform/queue/jobs';
import { QueueModule } from 'src/platform/queue/queue.module';
import { WorkerHeartbeat, WorkerHeartbeatTiming } from 'src/platform/queue/worker-heartbeat.service';
import { createTestDatabase, REDIS_URL, testRedisPrefix, type TestDatabase } from './support/services';
import { until } from './support/until';

/** "A minute" shortened to a second, so the test waits for nothing it does not have to. */
const timing = new WorkerHeartbeatTiming({ beatEveryMs: 200, goneAfterMs: 1_000, checkEveryMs: 50, warnEveryMs: 60_000 });

describe('worker heartbeat: the web process notices jobs waiting with no worker alive', () => {
  const redisKeys = testRedisPrefix();
  let database: TestDatabase;
  let config: AppConfig;
  let web: NestFastifyApplication;
  let worker: TestingModule | undefined;
  let producer: BullmqJobQueue;
  const logs: string[] = [];

  const readyz = async () => {
    const response = await fetch(`${await web.getUrl()}/readyz`);
    return { status: response.status, body: (await response.json()) as { status: string; checks: Record<string, string> } };
  };

  /** A worker as the worker process has it (BullmqJobWorkers and its heartbeat); its jobs succeed at once. */
  const startWorker = async () => {
    const app = await Test.createTestingModule({
      imports: [PlatformModule.forRoot(config, { structuredLogs: false }), ErrorLogModule, QueueModule],
      providers: [
        BullmqJobWorkers,
        WorkerHeartbeat,
        { provide: WorkerHeartbeatTiming, useValue: timing },
        { provide: 'no-op-processors', inject: [JobProcessors], useFactory: (p: JobProcessors) => JOB_NAMES.forEach((name) => p.register(name, () => Promise.resolve())) },
      ],
    }).compile();
    await app.init();
    return app;
  };

  beforeAll(async () => {
    for (const level of ['log', 'warn'] as const) {
      jest.spyOn(Logger.prototype, level).mockImplementation((...args: unknown[]) => void logs.push(String(args[0])));
    }
    database = await createTestDatabase();
    config = loadConfig({}, { DATABASE_URL: database.url, REDIS_URL, REDIS_KEY_PREFIX: redisKeys.prefix });
    producer = new BullmqJobQueue(config, new JobRetryPolicy());
    await producer.onModuleInit();
    // The error log only gives the ORM an entity to start with; the web side here is /readyz.
    const moduleRef = await Test.createTestingModule({ imports: [PlatformModule.forRoot(config, { structuredLogs: false }), ErrorLogModule, HealthModule] })
      .overrideProvider(WorkerHeartbeatTiming)
      .useValue(timing)
      .compile();
    web = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter());
    await web.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await worker?.close();
    await web?.close();
    await producer?.onApplicationShutdown();
    await redisKeys.drop();
    await database?.drop();
    jest.restoreAllMocks();
  });

  it('warns at start that no worker is running, and /readyz says nothing is wrong while nothing waits', async () => {
    await until('the start-up warning', () => logs.some((line) => line.startsWith('No worker is running: with REDIS_URL, jobs')));
    const { status, body } = await readyz();
    expect(status).toBe(200);
    expect(body).toEqual({ status: 'ready', checks: { database: 'up', migrations: 'up to date', redis: 'up', workers: 'none seen for 1 s' } });
  });

  it('warns in /readyz (still 200) and in the log when a job waits and no worker is alive, and once when a worker takes it', async () => {
    await producer.enqueue('mail.send', { outboxId: randomUUID() });
    const warned = await until('the warning in /readyz', async () => {
      const answer = await readyz();
      return answer.body.checks.workers === 'none seen for 1 s, 1 job waiting' && answer;
    });
    expect(warned.status).toBe(200);
    expect(warned.body.status).toBe('degraded');
    await until('the warning in the log', () => logs.some((line) => line.startsWith('Jobs are waiting and no worker is running')));

    worker = await startWorker();
    const recovered = await until('the worker in /readyz', async () => {
      const answer = await readyz();
      return answer.body.checks.workers === 'up (1 running)' && answer;
    });
    expect(recovered).toEqual({ status: 200, body: expect.objectContaining({ status: 'ready' }) });
    await until('the all-clear in the log', () => logs.some((line) => line.startsWith('Jobs no longer wait for a worker')));
    // At most once a minute: however many checks ran meanwhile, one warning.
    expect(logs.filter((line) => line.startsWith('Jobs are waiting and no worker is running'))).toHaveLength(1);
  });

  it('forgets a worker that stopped cleanly at once', async () => {
    await worker!.close();
    worker = undefined;
    await until('the stopped worker to be gone from /readyz', async () => (await readyz()).body.checks.workers === 'none seen for 1 s');
  });
});
