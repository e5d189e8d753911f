import { Injectable } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { RedisConnection } from 'src/platform/redis/redis.module';
import { AttemptLimiter } from '../../domain/ports';

type Hit = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Fixed-window counters: in Redis when configured, so every web process shares them; in memory
 * otherwise (one process). With Redis down, attempts pass (fail open) like the route limits do.
 */
@Injectable()
export class RedisOrMemoryAttemptLimiter extends AttemptLimiter {
  private readonly memory = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly redis: RedisConnection,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async hit(key: string, max: number, windowMs: number): Promise<Hit> {
    const client = this.redis.client;
    if (!client) return this.hitInMemory(key, max, windowMs);
    try {
      const redisKey = `${this.config.redis.keyPrefix}attempts:${key}`;
      const [[, count], [, ttl]] = (await client.multi().incr(redisKey).pttl(redisKey).exec()) as [[null, number], [null, number]];
      if (ttl < 0) await client.pexpire(redisKey, windowMs);
      return count <= max ? { allowed: true } : { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((ttl < 0 ? windowMs : ttl) / 1000)) };
    } catch {
      return { allowed: true };
    }
  }

  private hitInMemory(key: string, max: number, windowMs: number): Hit {
    const now = Date.now();
    let entry = this.memory.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + windowMs };
      this.memory.set(key, entry);
      // Keeps the map bounded: expired entries go when it grows.
      if (this.memory.size > 10_000) for (const [k, e] of this.memory) if (e.resetAt <= now) this.memory.delete(k);
    }
    entry.count++;
    return entry.count <= max ? { allowed: true } : { allowed: false, retryAfterSeconds: Math.ceil((entry.resetAt - now) / 1000) };
  }
}
