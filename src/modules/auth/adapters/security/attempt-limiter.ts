import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { RedisConnection } from 'src/platform/redis/redis.module';
import { AttemptLimiter } from '../../domain/ports';

type Hit = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** Keeps the in-memory map bounded: expired entries go when it grows past this. */
const MEMORY_ENTRIES = 10_000;

/**
 * Fixed-window counters: in Redis when configured, so every web process shares them; in this
 * process's memory otherwise, and also while Redis is unreachable (the limits hold per process
 * during an outage instead of letting every attempt through).
 */
@Injectable()
export class RedisOrMemoryAttemptLimiter extends AttemptLimiter {
  private readonly logger = new Logger('AttemptLimiter');
  private readonly memory = new Map<string, { count: number; resetAt: number }>();
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

  count(key: string): Promise<number> {
    return this.withFallback(
      async (client, redisKey) => Number((await client.get(redisKey)) ?? 0),
      () => {
        const entry = this.memory.get(key);
        return entry && entry.resetAt > Date.now() ? entry.count : 0;
      },
      key,
    );
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
