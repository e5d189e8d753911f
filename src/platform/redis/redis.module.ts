import { Injectable, Logger, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppConfig } from 'src/config/app-config';

/**
 * The shared Redis connection, present only when REDIS_URL is set. Web-side callers fail fast
 * (no offline queue, one retry) so a Redis outage shows as an error, not a hung request.
 */
@Injectable()
export class RedisConnection implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Redis');
  readonly client?: Redis;

  constructor(config: AppConfig) {
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

  async onApplicationShutdown(): Promise<void> {
    if (this.client && this.client.status !== 'end') this.client.disconnect();
  }
}

/** Import it where Redis is used: an explicit dependency, so a CLI that never needs Redis never connects. */
@Module({ providers: [RedisConnection], exports: [RedisConnection] })
export class RedisModule {}
