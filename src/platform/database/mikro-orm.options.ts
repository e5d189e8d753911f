import { resolve } from 'node:path';
import { Migrator } from '@mikro-orm/migrations';
import { PostgreSqlDriver, type Options } from '@mikro-orm/postgresql';
import { migrationsList } from 'migrations/index';
import { countRoundTrips } from './round-trips';

/** One ORM configuration for the web process, the worker, the CLI and the tests. */
export function mikroOrmOptions(url: string, kind: 'postgres' | 'embedded'): Options {
  return {
    driver: PostgreSqlDriver,
    clientUrl: url,
    // A Unix socket (the embedded server): `?host=/dir` in the URL, which MikroORM's parser ignores.
    ...(new URL(url).searchParams.get('host') ? { host: new URL(url).searchParams.get('host') } : {}),
    // Each module registers its entities with MikroOrmModule.forFeature().
    autoLoadEntities: true,
    extensions: [Migrator],
    migrations: {
      migrationsList,
      path: resolve('migrations'),
      emit: 'ts',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
    },
    // The credit ledger's (trial claims and reminders included), the orders', the image jobs', the account progress and the
    // mail preferences tables carry CHECK constraints, partial
    // indexes and foreign keys that only their hand-written migrations state (their adapters use
    // SQL for row locks and conditional updates): migration:create leaves them alone.
    schemaGenerator: { skipTables: [/^credit_/, 'trial_claims', 'orders', 'order_refunds', 'payment_events', 'image_jobs', /^account_progress/, 'mail_preferences'] },
    // The embedded server is one PGlite instance: one connection serialises work cleanly.
    pool: kind === 'embedded' ? { min: 0, max: 1 } : { min: 0, max: 10 },
    driverOptions: {
      // A server that does not answer (or a pool that stays full) fails the request within seconds,
      // answered 503 (DATABASE.UNAVAILABLE), instead of holding it until TCP gives up.
      ...(kind === 'postgres' ? { connectionTimeoutMillis: 5_000 } : {}),
      // Page loads report their round trips (metrics, tests, bench:pages).
      onPoolCreated: countRoundTrips,
    },
    ensureDatabase: false,
    allowGlobalContext: false,
    debug: false,
    colors: false,
  } as Options;
}
