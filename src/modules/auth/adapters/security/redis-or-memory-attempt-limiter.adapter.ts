import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { RedisConnection } from 'src/platform/redis/redis.module';
import { AuthBusyError } from '../../domain/auth.errors';
import { AttemptLimiter } from '../../domain/attempt-limiter.port';

type Hit = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Keeps the in-memory map bounded: expired entries go when it grows past this. */
const MEMORY_ENTRIES = 10_000;
/** A lock outlives a crashed holder by this much at most; the work it guards takes well under it. */
const LOCK_TTL_MS = 15_000;
/** A caller waiting longer than this for a lock gets AUTH.BUSY (a queue that long is a flood). */
const LOCK_WAIT_MS = 30_000;
/** How often a waiter asks Redis again (with jitter, so waiters do not move in step). */
const LOCK_POLL_MS = 20;
/** Deletes the lock only if it is still ours (it may have expired and gone to another holder). */
const UNLOCK_SCRIPT = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * Fixed-window counters: in Redis when configured, so every web process shares them; in this
 * process's memory otherwise, and also while Redis is unreachable (the limits hold per process
 * during an outage instead of letting every attempt through).
 */
@Injectable()
export class RedisOrMemoryAttemptLimiter extends AttemptLimiter {
  private readonly logger = new Logger('AttemptLimiter');
  private readonly memory = new Map<string, { count: number; resetAt: number }>();
  /** Per key, the promise the next holder waits for (the lock without Redis). */
  private readonly memoryLocks = new Map<string, Promise<void>>();
  private redisFailing = false;

  constructor(
    private readonly redis: RedisConnection,
    private readonly config: AppConfig,
  ) {
    super();
  }

  hit(key: string, max: number, windowMs: number): Promise<Hit> {
    return this.withFallback(
      async (client, redisKey) => {
        const [[, count], [, ttl]] = (await client.multi().incr(redisKey).pttl(redisKey).exec()) as [[null, number], [null, number]];
        if (ttl < 0) await client.pexpire(redisKey, windowMs);
        return verdict(count, max, ttl < 0 ? windowMs : ttl);
      },
      () => this.hitInMemory(key, max, windowMs),
      key,
    );
  }

  peek(key: string): Promise<{ count: number; retryAfterSeconds: number }> {
    return this.withFallback(
      async (client, redisKey) => {
        const [[, count], [, ttl]] = (await client.multi().get(redisKey).pttl(redisKey).exec()) as [[null, string | null], [null, number]];
        return { count: Number(count ?? 0), retryAfterSeconds: Math.max(1, Math.ceil(Math.max(ttl, 0) / 1000)) };
      },
      () => {
        const entry = this.memory.get(key);
        const now = Date.now();
        return entry && entry.resetAt > now
          ? { count: entry.count, retryAfterSeconds: Math.max(1, Math.ceil((entry.resetAt - now) / 1000)) }
          : { count: 0, retryAfterSeconds: 1 };
      },
      key,
    );
  }

  async exclusive<T>(key: string, work: () => Promise<T>): Promise<T> {
    const release = await this.lock(key);
    try {
      return await work();
    } finally {
      await release();
    }
  }

  /** Takes `key`'s lock (Redis SET NX with a token; this process's queue without Redis); resolves with its release. */
  private async lock(key: string): Promise<() => Promise<void>> {
    const token = randomBytes(16).toString('hex');
    const giveUpAt = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      const taken = await this.withFallback(
        async (client, redisKey) => ((await client.set(redisKey, token, 'PX', LOCK_TTL_MS, 'NX')) === 'OK' ? redisKey : null),
        () => null,
        `lock:${key}`,
      );
      if (taken) {
        return async () => {
          await this.redis.client?.eval(UNLOCK_SCRIPT, 1, taken, token).catch(() => undefined);
        };
      }
      // No Redis (or it failed): this process's own queue for the key.
      if (!this.redis.client || this.redisFailing) return this.lockInMemory(key);
      if (Date.now() > giveUpAt) throw new AuthBusyError(2);
      await sleep(LOCK_POLL_MS + Math.random() * LOCK_POLL_MS);
    }
  }

  private async lockInMemory(key: string): Promise<() => Promise<void>> {
    const previous = this.memoryLocks.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.memoryLocks.set(key, tail);
    await previous;
    return async () => {
      release();
      if (this.memoryLocks.get(key) === tail) this.memoryLocks.delete(key);
    };
  }

  clear(key: string): Promise<void> {
    return this.withFallback(
      async (client, redisKey) => void (await client.del(redisKey)),
      () => void this.memory.delete(key),
      key,
    );
  }

  private async withFallback<T>(
    inRedis: (client: NonNullable<RedisConnection['client']>, redisKey: string) => Promise<T>,
    inMemory: () => T,
    key: string,
  ): Promise<T> {
    const client = this.redis.client;
    if (!client) return inMemory();
    try {
      const result = await inRedis(client, `${this.config.redis.keyPrefix}attempts:${key}`);
      if (this.redisFailing) this.logger.log('Redis answers again: attempt limits are shared by every web process again');
      this.redisFailing = false;
      return result;
    } catch (error) {
      if (!this.redisFailing) {
        this.logger.warn(`Redis is unreachable (${(error as Error).message}): attempt limits are counted in this process until it is back`);
      }
      this.redisFailing = true;
      return inMemory();
    }
  }

  private hitInMemory(key: string, max: number, windowMs: number): Hit {
    const now = Date.now();
    let entry = this.memory.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + windowMs };
      this.memory.set(key, entry);
      if (this.memory.size > MEMORY_ENTRIES) this.trimMemory(now);
    }
    entry.count++;
    return verdict(entry.count, max, entry.resetAt - now);
  }

  /** Expired entries first; then the oldest windows, so a flood of distinct keys cannot grow the map without bound. */
  private trimMemory(now: number): void {
    for (const [k, e] of this.memory) if (e.resetAt <= now) this.memory.delete(k);
    for (const k of this.memory.keys()) {
      if (this.memory.size <= MEMORY_ENTRIES) break;
      this.memory.delete(k);
    }
  }
}

function verdict(count: number, max: number, remainingMs: number): Hit {
  return count <= max ? { allowed: true } : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(remainingMs / 1000)) };
}
