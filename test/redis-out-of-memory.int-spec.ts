import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Redis } from 'ioredis';
import { loadConfig } from 'src/config/app-config';
import type { MigrationStatus } from 'src/platform/database/migration-status.service';
import { Readiness } from 'src/platform/health/readiness.service';
import { BullmqJobQueue } from 'src/platform/queue/bullmq-job-queue.adapter';
import { JobRetryPolicy } from 'src/platform/queue/job-retry-policy';
import { QueueUnavailableError } from 'src/platform/queue/queue.errors';
import type { WorkerWatch } from 'src/platform/queue/worker-heartbeat.service';
import { describeRedisError, isRedisOutOfMemory } from 'src/platform/redis/redis-errors';
import { RedisConnection } from 'src/platform/redis/redis.module';
import { freePort } from './support/app-process';
import { until } from './support/until';

/**
 * A Redis of this test's own at its memory limit (`noeviction`, as production runs it): never the
 * shared one, whose settings other tests rely on. Writes are refused with "OOM command not allowed".
 */
describe('Redis out of memory', () => {
  let server: ChildProcess;
  let dir: string;
  let url: string;
  let filler: Redis;
  /** The error the write that found Redis full failed with, as ioredis gives it. */
  let refused: unknown;
  const lines: string[] = [];

  beforeAll(async () => {
    for (const level of ['log', 'warn', 'error'] as const) {
      jest.spyOn(Logger.prototype, level).mockImplementation((...args: unknown[]) => void lines.push(String(args[0])));
    }
    dir = await mkdtemp(join(tmpdir(), 'redis-oom-'));
    const port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--maxmemory', '1mb', '--maxmemory-policy', 'noeviction', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
    // A fresh client per try: one whose first connect failed keeps reconnecting, and refuses connect() again.
    await until(
      'the test Redis to answer',
      async () => {
        const probe = new Redis(url, { maxRetriesPerRequest: 0, lazyConnect: true, retryStrategy: () => null });
        probe.on('error', () => undefined);
        try {
          await probe.connect();
          return (await probe.ping()) === 'PONG';
        } catch {
          return false;
        } finally {
          probe.disconnect();
        }
      },
      10_000,
      100,
    );
    filler = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
    await filler.connect();
    // Fill it until it refuses a write.
    await until('Redis to be full', async () => {
      try {
        await filler.set(`fill:${Math.random()}`, 'x'.repeat(64 * 1024));
        return false;
      } catch (error) {
        refused = error;
        return true;
      }
    }, 10_000, 0);
    // Then firmly over the limit (at it, freed client buffers would let a small write through now and then).
    const used = Number(/used_memory:(\d+)/.exec(await filler.info('memory'))![1]);
    await filler.config('SET', 'maxmemory', String(Math.floor(used / 2)));
  });

  afterAll(async () => {
    filler?.disconnect();
    server?.kill('SIGTERM');
    if (server && server.exitCode === null) await new Promise((resolve) => server.once('exit', resolve));
    await rm(dir, { recursive: true, force: true });
    jest.restoreAllMocks();
  });

  it('names the error of a refused write from a real Redis as out of memory', async () => {
    expect(refused).toMatchObject({ name: 'ReplyError', message: expect.stringMatching(/^OOM command not allowed/) });
    expect(isRedisOutOfMemory(refused)).toBe(true);
    expect(describeRedisError(refused)).toBe('out of memory: writes refused (OOM command not allowed, maxmemory reached); raise maxmemory or free keys');
    expect(describeRedisError(new Error('connect ECONNREFUSED 127.0.0.1:1'))).toBe('down');
  });

  it('makes /readyz degraded with a redis check that says so, though PING still answers', async () => {
    const config = loadConfig({}, { REDIS_URL: url, REDIS_KEY_PREFIX: 'oom:' });
    const redis = new RedisConnection(config);
    try {
      expect(await redis.client!.connect().then(() => redis.client!.ping())).toBe('PONG');
      const em = { getConnection: () => ({ execute: async () => [{ '?column?': 1 }] }) } as unknown as EntityManager;
      const migrations = { pending: async () => [] } as unknown as MigrationStatus;
      const workers = { state: async () => ({ summary: 'up (1 worker)', warning: false }) } as unknown as WorkerWatch;
      const report = await new Readiness(em, migrations, redis, workers).report();
      expect(report.status).toBe('degraded');
      expect(report.checks.redis).toMatch(/^out of memory: writes refused/);
      expect(await redis.writeProblem()).toBe(report.checks.redis);
    } finally {
      await redis.onApplicationShutdown();
    }
  });

  it('refuses to queue a job (503) and logs the out-of-memory once, not once per refused job', async () => {
    const queue = new BullmqJobQueue(loadConfig({}, { REDIS_URL: url, REDIS_KEY_PREFIX: 'oom:' }), new JobRetryPolicy());
    await queue.onModuleInit();
    try {
      for (let i = 0; i < 5; i++) {
        await expect(queue.enqueue('mail.send', { outboxId: '00000000-0000-4000-8000-000000000000' })).rejects.toBeInstanceOf(QueueUnavailableError);
      }
      const said = lines.filter((line) => line.startsWith('Redis (job queue)'));
      expect(said).toEqual(['Redis (job queue) is unavailable: out of memory: writes refused (OOM command not allowed, maxmemory reached); raise maxmemory or free keys (logged again at most once every 60 s while it lasts)']);
    } finally {
      await queue.onApplicationShutdown();
    }
  });
});
