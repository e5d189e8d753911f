import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

type Counted = { current: number; ttl: number };

/** Keeps the in-memory counters bounded: expired windows go first, then the oldest. */
const MEMORY_KEYS = 50_000;

/** Fixed windows in this process's memory, shared by every route's child store (keys carry the route). */
class MemoryWindows {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  incr(key: string, windowMs: number): Counted {
    const now = Date.now();
    let entry = this.windows.get(key);
    if (!entry || entry.resetAt <= now) {
      this.windows.delete(key);
      entry = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, entry);
      if (this.windows.size > MEMORY_KEYS) this.trim(now);
    }
    entry.count++;
    return { current: entry.count, ttl: entry.resetAt - now };
  }

  private trim(now: number): void {
    for (const [key, entry] of this.windows) if (entry.resetAt <= now) this.windows.delete(key);
    for (const key of this.windows.keys()) {
      if (this.windows.size <= MEMORY_KEYS) break;
      this.windows.delete(key);
    }
  }
}

/**
 * The route limits' counters: in Redis when it answers, so every web process shares them; in this
 * process's memory when there is no Redis or while it is unreachable, so an outage does not lift
 * the limits (each process then counts on its own, which is stricter than none).
 */
export function rateLimitStore(
  redis: Redis | undefined,
  nameSpace: string,
  log: { warn(message: string): void; log(message: string): void },
): FastifyRateLimitStoreCtor {
  const memory = new MemoryWindows();
  let failing = false;

  class FallbackStore implements FastifyRateLimitStore {
    /** The plugin passes its options first; children pass their route's key prefix. */
    constructor(_options?: unknown, private readonly prefix = nameSpace) {}

    incr(key: string, callback: (error: Error | null, result?: Counted) => void, timeWindow: number): void {
      const fullKey = this.prefix + key;
      if (!redis) return callback(null, memory.incr(fullKey, timeWindow));
      incrInRedis(redis, fullKey, timeWindow).then(
        (counted) => {
          if (failing) log.log('Redis answers again: rate limits are shared by every web process again');
          failing = false;
          callback(null, counted);
        },
        (error: Error) => {
          if (!failing) log.warn(`Redis is unreachable (${error.message}): rate limits are counted in this process until it is back`);
          failing = true;
          callback(null, memory.incr(fullKey, timeWindow));
        },
      );
    }

    /**
     * One per rate-limited route. At run time the plugin passes the route's merged limit options with
     * the route itself under `routeInfo` (its typings say otherwise; RedisStore reads it the same way).
     */
    child(routeOptions: object): FastifyRateLimitStore {
      const { method, url } = (routeOptions as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo ?? {};
      // A limiter made with createRateLimit (the search pages) has no route: its keys name themselves.
      return new FallbackStore(undefined, method === undefined ? this.prefix : `${this.prefix}${String(method)}${url}-`);
    }
  }
  return FallbackStore;
}

async function incrInRedis(redis: Redis, key: string, windowMs: number): Promise<Counted> {
  const [[incrError, current], [, ttl]] = (await redis.multi().incr(key).pttl(key).exec()) as [[Error | null, number], [Error | null, number]];
  if (incrError) throw incrError;
  if (ttl < 0) {
    await redis.pexpire(key, windowMs);
    return { current, ttl: windowMs };
  }
  return { current, ttl };
}
