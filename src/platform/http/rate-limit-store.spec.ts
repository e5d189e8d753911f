import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { rateLimitStore } from './rate-limit-store';

const silent = { warn: jest.fn(), log: jest.fn() };

/** Two routes of two requests a minute each, counted by the store under test. */
async function appWith(redis: Redis | undefined): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(rateLimit, { global: false, store: rateLimitStore(redis, 'spec:', silent) });
  for (const path of ['/a', '/b']) app.get(path, { config: { rateLimit: { max: 2, timeWindow: 60_000 } } }, async () => 'ok');
  return app;
}

const statuses = async (app: FastifyInstance, path: string, times: number) => {
  const seen: number[] = [];
  for (let i = 0; i < times; i++) seen.push((await app.inject({ method: 'GET', url: path })).statusCode);
  return seen;
};

describe('rateLimitStore', () => {
  afterEach(() => jest.clearAllMocks());

  it('counts each route on its own (in memory without Redis)', async () => {
    const app = await appWith(undefined);
    expect(await statuses(app, '/a', 3)).toEqual([200, 200, 429]);
    expect(await statuses(app, '/b', 3)).toEqual([200, 200, 429]);
    await app.close();
  });

  it('keeps limiting in memory while Redis is unreachable, and says so once', async () => {
    // Nothing listens on port 9: every command fails at once, as during an outage.
    const redis = new Redis({ port: 9, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    redis.on('error', () => undefined);
    const app = await appWith(redis);
    expect(await statuses(app, '/a', 3)).toEqual([200, 200, 429]);
    expect(silent.warn).toHaveBeenCalledTimes(1);
    expect(silent.warn.mock.calls[0]![0]).toContain('rate limits are counted in this process until it is back');
    await app.close();
    redis.disconnect();
  });
});
