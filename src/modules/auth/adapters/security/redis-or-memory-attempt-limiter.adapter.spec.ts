import { loadConfig } from 'src/config/app-config';
import { RedisConnection } from 'src/platform/redis/redis.module';
import { RedisOrMemoryAttemptLimiter } from './redis-or-memory-attempt-limiter.adapter';

describe('RedisOrMemoryAttemptLimiter without Redis', () => {
  const config = loadConfig({});
  const limiter = new RedisOrMemoryAttemptLimiter(new RedisConnection(config), config);

  it('runs the work of one key one at a time, and of different keys side by side', async () => {
    let inside = 0;
    let most = 0;
    const work = async () => {
      most = Math.max(most, ++inside);
      await new Promise((resolve) => setImmediate(resolve));
      inside--;
    };
    await Promise.all(Array.from({ length: 10 }, () => limiter.exclusive('a', work)));
    expect(most).toBe(1);
    most = 0;
    await Promise.all(['x', 'y', 'z'].map((key) => limiter.exclusive(key, work)));
    expect(most).toBe(3);
  });

  it('lets the next one in when the work fails', async () => {
    await expect(limiter.exclusive('b', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(limiter.exclusive('b', async () => 'next')).resolves.toBe('next');
  });
});
