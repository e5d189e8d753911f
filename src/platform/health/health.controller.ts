import { ApiTags } from '@nestjs/swagger';
import { Controller, Get, Res } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyReply } from 'fastify';
import { RedisConnection } from 'src/platform/redis/redis.module';

type Check = 'up' | 'down' | 'not configured';

const withTimeout = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);

/** Liveness for the process manager, readiness for the load balancer. */
@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    private readonly em: EntityManager,
    private readonly redis: RedisConnection,
  ) {}

  @Get('healthz')
  alive() {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const [database, redis] = await Promise.all([this.database(), this.redisCheck()]);
    const ready = database === 'up' && redis !== 'down';
    void reply.status(ready ? 200 : 503).header('cache-control', 'no-store');
    return { status: ready ? 'ready' : 'unavailable', checks: { database, redis } };
  }

  private async database(): Promise<Check> {
    try {
      await withTimeout(this.em.getConnection().execute('select 1'), 2_000);
      return 'up';
    } catch {
      return 'down';
    }
  }

  private async redisCheck(): Promise<Check> {
    const client = this.redis.client;
    if (!client) return 'not configured';
    try {
      await this.redis.connect();
      return (await withTimeout(client.ping(), 2_000)) === 'PONG' ? 'up' : 'down';
    } catch {
      return 'down';
    }
  }
}
