import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * The real services the integration and end-to-end tests use. CI (and docs/testing.md) provide
 * PostgreSQL and Redis on their standard local ports; a missing service fails the test loudly.
 */
export const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * This run's id and migrated template database, set by the tier's global set-up
 * (test/support/global-setup.ts). Names carry the run id, so a concurrent run on the same
 * PostgreSQL and Redis (another checkout's `npm test`) never meets them.
 */
export const RUN_ID = process.env.TEST_RUN_ID ?? `${Date.now().toString(36)}${process.pid.toString(36)}`;
/** The run's migrated template, and its copy with the shipped content imported (a bench copies them too). */
export const TEMPLATE_DATABASE = process.env.TEST_TEMPLATE_DATABASE;
export const CONTENT_TEMPLATE_DATABASE = process.env.TEST_CONTENT_TEMPLATE_DATABASE;
const WORKER = process.env.JEST_WORKER_ID ?? '0';
let created = 0;

export async function connect(url: string): Promise<Client> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`PostgreSQL is not reachable at ${url} (start it, or set TEST_DATABASE_URL)`, { cause: error });
  }
  return client;
}

/** The URL of database `name` on the test server. */
export function databaseUrl(name: string): string {
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `sql` on the server's maintenance connection (the configured database). */
export async function adminQuery(sql: string): Promise<void> {
  const admin = await connect(POSTGRES_URL);
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A database of its own for one test file (or one test), dropped afterwards. By default a clone of
 * the run's template, already migrated (a clone takes a fraction of a second, migrating several);
 * `content` for one that also holds the shipped content/ as a start imports it; `empty` for the
 * tests about migrating a database.
 */
export async function createTestDatabase({ empty = false, content = false }: { empty?: boolean; content?: boolean } = {}): Promise<TestDatabase> {
  const template = content ? CONTENT_TEMPLATE_DATABASE : TEMPLATE_DATABASE;
  if (!empty && !template) throw new Error('No template database: run the tests through jest (its global set-up migrates one)');
  const name = `t_${RUN_ID}_w${WORKER}_${++created}_${randomBytes(2).toString('hex')}`;
  await adminQuery(empty ? `create database "${name}"` : `create database "${name}" template "${template}"`);
  return {
    url: databaseUrl(name),
    name,
    drop: () => adminQuery(`drop database if exists "${name}" with (force)`),
  };
}

/** A Redis key prefix of its own for one test file; `drop` deletes every key under it afterwards. */
export function testRedisPrefix() {
  const prefix = `t${RUN_ID.slice(-6)}w${WORKER}${randomBytes(3).toString('hex')}:`;
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
