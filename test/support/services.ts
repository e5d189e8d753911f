import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * The real services the integration and end-to-end tests use. CI (and the README) provide
 * PostgreSQL and Redis on their standard local ports; a missing service fails the test loudly.
 */
export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function connect(url: string): Promise<Client> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`PostgreSQL is not reachable at ${url} (start it, or set TEST_DATABASE_URL)`, { cause: error });
  }
  return client;
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh database of its own for one test file, dropped afterwards, so runs never interfere. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = await connect(POSTGRES_URL);
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = await connect(POSTGRES_URL);
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A Redis key prefix of its own for one test file; `drop` deletes every key under it afterwards. */
export function testRedisPrefix() {
  const prefix = `t${randomBytes(4).toString('hex')}:`;
  return {
    prefix,
    async drop() {
      const { Redis } = await import('ioredis');
      const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
      try {
        await client.connect();
        for (let cursor = '0'; ; ) {
          const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
          if (keys.length) await client.del(...keys);
          if ((cursor = next) === '0') break;
        }
      } finally {
        client.disconnect();
      }
    },
  };
}
