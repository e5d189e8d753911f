import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Injectable, Logger, Optional, type OnApplicationBootstrap, type OnApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { AppConfig } from 'src/config/app-config';
import { RedisConnection } from 'src/platform/redis/redis.module';
import { bullmqPrefix } from './bullmq-job-queue.adapter';
import { QUEUE_NAMES } from './jobs';

/** How workers announce themselves and how soon the web process misses them. Tests shorten it. */
export class WorkerHeartbeatTiming {
  /** A worker refreshes its heartbeat this often. */
  readonly beatEveryMs: number = 15_000;
  /** A worker not heard from for this long is gone (its heartbeat key's TTL). */
  readonly goneAfterMs: number = 60_000;
  /** The web process looks this often; /readyz reuses the answer meanwhile. */
  readonly checkEveryMs: number = 5_000;
  /** While jobs wait with no worker, the web process logs the warning at most this often. */
  readonly warnEveryMs: number = 60_000;

  constructor(overrides: Partial<WorkerHeartbeatTiming> = {}) {
    Object.assign(this, overrides);
  }
}

// One key per worker (with a TTL, so a killed worker disappears by itself) and a set naming them.
const workersKey = (config: AppConfig) => `${config.redis.keyPrefix}workers`;
const workerKey = (config: AppConfig, id: string) => `${config.redis.keyPrefix}workers:${id}`;

/**
 * Written by the worker process while it runs (WorkerModule, beside BullmqJobWorkers): a key with a
 * TTL, refreshed every 15 s and at each (re)connection, removed when the worker stops cleanly.
 */
@Injectable()
export class WorkerHeartbeat implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly timing: WorkerHeartbeatTiming;
  private client?: Redis;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly config: AppConfig,
    @Optional() timing?: WorkerHeartbeatTiming,
  ) {
    this.timing = timing ?? new WorkerHeartbeatTiming();
  }

  onApplicationBootstrap(): void {
    if (!this.config.redis.url) return;
    // Fails fast: a beat missed while Redis is down is simply the next one's job.
    this.client = new Redis(this.config.redis.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000 });
    this.client.on('error', () => undefined);
    this.client.on('ready', () => this.beat());
    void this.client.connect().catch(() => undefined);
    this.timer = setInterval(() => this.beat(), this.timing.beatEveryMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    const client = this.client;
    if (!client) return;
    if (client.status === 'ready') {
      await client.multi().del(workerKey(this.config, this.id)).srem(workersKey(this.config), this.id).exec().catch(() => undefined);
    }
    client.disconnect();
  }

  private beat(): void {
    const value = JSON.stringify({ host: hostname(), pid: process.pid, queues: QUEUE_NAMES });
    void this.client
      ?.multi()
      .set(workerKey(this.config, this.id), value, 'PX', this.timing.goneAfterMs)
      .sadd(workersKey(this.config), this.id)
      .exec()
      .catch(() => undefined);
  }
}

/** Workers whose heartbeat is alive; forgets the names of those killed without a clean stop (their key has expired). */
async function aliveWorkers(client: Redis, config: AppConfig): Promise<number> {
  const ids = await client.smembers(workersKey(config));
  const beats = ids.length ? await client.mget(ids.map((id) => workerKey(config, id))) : [];
  const gone = ids.filter((_, i) => beats[i] === null);
  if (gone.length) await client.srem(workersKey(config), ...gone);
  return ids.length - gone.length;
}

/**
 * How many worker processes are alive now (by their heartbeats), for estimates; asked at most
 * every few seconds. Undefined without REDIS_URL (the web process runs the jobs) or while Redis
 * cannot be reached.
 */
@Injectable()
export class LiveWorkers {
  private last?: { count: number | undefined; at: number };

  constructor(
    private readonly config: AppConfig,
    private readonly redis: RedisConnection,
  ) {}

  async count(): Promise<number | undefined> {
    const client = this.redis.client;
    if (!client) return undefined;
    if (this.last && Date.now() - this.last.at < 5_000) return this.last.count;
    const count = await aliveWorkers(client, this.config).catch(() => undefined);
    this.last = { count, at: Date.now() };
    return count;
  }
}

export interface WorkersState {
  /** For /readyz: 'up (2 running)', 'none seen for 60 s', 'none seen for 60 s, 3 jobs waiting'. */
  summary: string;
  /** Jobs are waiting and no worker has been seen for WorkerHeartbeatTiming.goneAfterMs. */
  warning: boolean;
}

/**
 * The web process's view of the workers (with REDIS_URL, where `npm run worker` runs the jobs):
 * jobs waiting while no worker is alive is logged (at most once a minute, and once when it is over)
 * and shown in /readyz. Pages still work then, so readiness stays 200.
 */
@Injectable()
export class WorkerWatch implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Workers');
  private readonly timing: WorkerHeartbeatTiming;
  private readonly queues: Queue[] = [];
  private last?: { state: WorkersState; at: number };
  private looking?: Promise<WorkersState>;
  private timer?: NodeJS.Timeout;
  /** When the warning was last logged; unset while all is well. */
  private warnedAt?: number;

  constructor(
    private readonly config: AppConfig,
    private readonly redis: RedisConnection,
    @Optional() timing?: WorkerHeartbeatTiming,
  ) {
    this.timing = timing ?? new WorkerHeartbeatTiming();
  }

  onApplicationBootstrap(): void {
    if (!this.redis.client) return;
    this.timer = setInterval(() => void this.refresh(), this.timing.checkEveryMs);
    this.timer.unref();
    // At start, a missing worker is said even before a job waits: mail would silently not go out.
    void this.refresh().then((state) => {
      if (state.summary.startsWith('none seen') && !state.warning) {
        this.logger.warn('No worker is running: with REDIS_URL, jobs (mail, image conversions) wait until `npm run worker` starts');
      }
    });
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(this.queues.map((queue) => queue.close().catch(() => undefined)));
  }

  /** Undefined without REDIS_URL: the web process runs the jobs itself. */
  async state(): Promise<WorkersState | undefined> {
    if (!this.redis.client) return undefined;
    if (this.last && Date.now() - this.last.at < this.timing.checkEveryMs) return this.last.state;
    return this.refresh();
  }

  private refresh(): Promise<WorkersState> {
    this.looking ??= this.look()
      .then((state) => {
        this.last = { state, at: Date.now() };
        this.report(state);
        return state;
      })
      .finally(() => (this.looking = undefined));
    return this.looking;
  }

  private async look(): Promise<WorkersState> {
    const client = this.redis.client!;
    try {
      const alive = await aliveWorkers(client, this.config);
      if (alive) return { summary: `up (${alive} running)`, warning: false };
      const none = `none seen for ${Math.round(this.timing.goneAfterMs / 1000)} s`;
      const waiting = await this.waitingJobs();
      return waiting ? { summary: `${none}, ${waiting} job${waiting === 1 ? '' : 's'} waiting`, warning: true } : { summary: none, warning: false };
    } catch {
      return { summary: 'unknown (Redis unreachable)', warning: false };
    }
  }

  private async waitingJobs(): Promise<number> {
    if (!this.queues.length) {
      for (const name of QUEUE_NAMES) {
        const queue = new Queue(name, { connection: this.redis.client!, prefix: bullmqPrefix(this.config), skipWaitingForReady: true });
        queue.on('error', () => undefined);
        this.queues.push(queue);
      }
    }
    const counts = await Promise.all(this.queues.map((queue) => queue.getJobCounts('waiting')));
    return counts.reduce((sum, count) => sum + (count.waiting ?? 0), 0);
  }

  private report(state: WorkersState): void {
    const now = Date.now();
    if (state.warning) {
      if (this.warnedAt !== undefined && now - this.warnedAt < this.timing.warnEveryMs) return;
      this.warnedAt = now;
      this.logger.warn(`Jobs are waiting and no worker is running: ${state.summary}. Start one with \`npm run worker\``);
    } else if (this.warnedAt !== undefined && !state.summary.startsWith('unknown')) {
      this.warnedAt = undefined;
      this.logger.log(`Jobs no longer wait for a worker (workers: ${state.summary})`);
    }
  }
}
