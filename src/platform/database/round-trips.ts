import { AsyncLocalStorage } from 'node:async_hooks';
import type { Pool, PoolClient } from 'pg';

/** The round trips of the work being measured (an async context: concurrent requests never mix). */
const measured = new AsyncLocalStorage<{ count: number }>();
const counting = new WeakSet<PoolClient>();

/**
 * Counts every statement the pool's connections send: MikroORM (through kysely) calls `query` once
 * per round trip, BEGIN and COMMIT included. Installed on the pool as it is created
 * (mikro-orm.options.ts); only work inside `measureRoundTrips` is counted.
 */
export function countRoundTrips(pool: Pool): void {
  pool.on('connect', (client) => {
    if (counting.has(client)) return;
    counting.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const scope = measured.getStore();
      if (scope) scope.count++;
      return query(...args);
    };
  });
}

/** Runs `work` and says how many database round trips it made (its queries in parallel count each). */
export async function measureRoundTrips<T>(work: () => Promise<T>): Promise<{ value: T; roundTrips: number }> {
  const scope = { count: 0 };
  const value = await measured.run(scope, work);
  return { value, roundTrips: scope.count };
}
