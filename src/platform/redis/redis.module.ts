import { Injectable, Logger, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppConfig } from 'src/config/app-config';
import { describeRedisError } from './redis-errors';

const withTimeout = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);

/**
 * The shared Redis connection, present only when REDIS_URL is set. Web-side callers fail fast
 * (no offline queue, one retry) so a Redis outage shows as an error, not a hung request.
 */
@Injectable()
export class RedisConnection implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Redis');
  readonly client?: Redis;
  private readonly keyPrefix: string;

  constructor(config: AppConfig) {
    this.keyPrefix = config.redis.keyPrefix;
    if (config.redis.url) {
      this.client = new Redis(config.redis.url, {
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        connectTimeout: 2_000,
      });
      // Errors are reported where a command fails (readiness, rate limits); keep the process alive.
      this.client.on('error', () => undefined);
    }
  }

  /** Connects at start; when Redis is down the client keeps retrying and /readyz says so. */
  async onModuleInit(): Promise<void> {
    await this.connect();
  }

  async connect(): Promise<void> {
    if (this.client && this.client.status === 'wait') {
      await this.client.connect().catch((error: Error) => this.logger.warn(`Redis is not reachable yet: ${error.message}`));
    }
  }

  /**
   * Whether Redis takes a write now: null when it does, else the problem in words. A write, not a
   * PING: Redis at maxmemory with noeviction answers PING and refuses every write (queueing, limits).
   */
  async writeProblem(): Promise<string | null> {
    if (!this.client) return null;
    try {
      await this.connect();
      await withTimeout(this.client.set(`${this.keyPrefix}readyz:probe`, '1', 'PX', 10_000), 2_000);
      return null;
    } catch (error) {
      return describeRedisError(error);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.client && this.client.status !== 'end') this.client.disconnect();
  }
}

/** Import it where Redis is used: an explicit dependency, so a CLI that never needs Redis never connects. */
@Module({ providers: [RedisConnection], exports: [RedisConnection] })
export class RedisModule {}
