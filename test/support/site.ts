import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { Browser } from 'playwright-core';
import { insertSignedInUser } from './accounts';
import { freePort, startApp, startWorker, type RunningApp, type RunningWorker } from './app-process';
import type { InProcessApp } from './in-process-app';
import { startMailSink, type MailSink } from './mail-sink';
import { createTestDatabase, REDIS_URL, testRedisPrefix, type TestDatabase } from './services';

export interface SiteOptions {
  /** Settings for the web process (and the worker), on top of those the site owns. */
  env?: Record<string, string>;
  /**
   * `postgres` (default): a clone of the run's migrated template; `empty`: an empty PostgreSQL
   * database the app migrates; `embedded`: the embedded database in DATA_DIR, for the tests about it.
   */
  database?: 'postgres' | 'empty' | 'embedded';
  /** Redis under a key prefix of this site's own (without it, jobs run in the web process). */
  redis?: boolean;
  /** A worker process beside the web process (needs `redis`). */
  worker?: boolean;
  /** A real SMTP server catching the mail (without it, mail is written under DATA_DIR/mail). */
  mail?: boolean;
  /** Headless Chromium, launched first: without it nothing else starts (`publicUrl` unless said otherwise). */
  browser?: boolean;
  /** PUBLIC_URL is the address the site listens on (the origin write actions must come from). */
  publicUrl?: boolean;
  /** Arranges the (migrated) database before the web process starts, e.g. rows its start-up work finds. */
  seed?: (databaseUrl: string) => Promise<void>;
}

export interface Site {
  url: string;
  port: number;
  app: RunningApp;
  /** Everything the web process was given: more processes of the same site start from it. */
  env: Record<string, string>;
  /** The site's DATA_DIR (embedded database, mail folder, image files); removed by close(). */
  dataDir: string;
  database?: TestDatabase;
  redisPrefix?: string;
  mail?: MailSink;
  worker?: RunningWorker;
  browser?: Browser;
  /** Another web process of the same site (database, Redis, files) with `env` on top; stopped by close(). */
  startApp(env?: Record<string, string>): Promise<RunningApp>;
  /** A worker process of the same site with `env` on top; stopped by close(). */
  startWorker(env?: Record<string, string>): Promise<RunningWorker>;
  /** A client on the site's PostgreSQL database, ended by close(). */
  db(): Promise<Client>;
  /** A confirmed user with a live session, written into the database: its bearer token. */
  signedInUser(email: string): Promise<string>;
  close(): Promise<void>;
}

/** What a site is apart from its web process: files, database, Redis, mail, the environment, the helpers. */
type SiteBase = Omit<Site, 'url' | 'port' | 'app' | 'close'> & { stops: (() => Promise<unknown>)[]; stopAll(): Promise<void> };

/**
 * Everything a site's web process needs, started in order (`stops` undoes it in reverse): its own
 * DATA_DIR, database, Redis prefix, mail sink and port, and the environment that names them.
 */
async function prepareSite(options: SiteOptions): Promise<SiteBase> {
  const stops: (() => Promise<unknown>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
  };
  try {
    // Playwright loads only where a browser is asked for: requiring it costs most of a second of CPU.
    const browser = options.browser ? await (await import('./browser')).launchBrowser() : undefined;
    if (browser) stops.push(() => browser.close());
    const dataDir = await mkdtemp(join(tmpdir(), 'site-'));
    stops.push(() => rm(dataDir, { recursive: true, force: true }));
    // A site that imports the shipped content at start gets a database that already holds it (its start finds nothing changed).
    const shippedContent = !options.env?.CONTENT_DIR && options.env?.CONTENT_IMPORT_ON_START !== 'false';
    const database = options.database === 'embedded' ? undefined : await createTestDatabase({ empty: options.database === 'empty', content: shippedContent });
    if (database) stops.push(() => database.drop());
    const redis = options.redis ? testRedisPrefix() : undefined;
    if (redis) stops.push(() => redis.drop());
    const mail = options.mail ? await startMailSink() : undefined;
    if (mail) stops.push(() => mail.close());
    let client: Client | undefined;
    stops.push(async () => client?.end());

    const port = await freePort();
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      // Every process of the site runs on this machine with this DATA_DIR: its image files are shared.
      IMAGE_STORE_SHARED: 'true',
      PORT: String(port),
      ...((options.publicUrl ?? !!browser) ? { PUBLIC_URL: `http://127.0.0.1:${port}` } : {}),
      ...(database ? { DATABASE_URL: database.url } : {}),
      ...(redis ? { REDIS_URL, REDIS_KEY_PREFIX: redis.prefix } : {}),
      ...(mail ? { SMTP_URL: mail.url } : {}),
      ...options.env,
    };
    const base: SiteBase = {
      env,
      dataDir,
      database,
      redisPrefix: redis?.prefix,
      mail,
      browser,
      stops,
      stopAll,
      async startApp(extra: Record<string, string> = {}) {
        // Another process of the same site: its own port, and the schema is the first one's business.
        const { PORT: _port, ...shared } = env;
        const app = await startApp({ ...shared, MIGRATE_ON_START: 'false', ...extra });
        stops.push(() => app.stop());
        return app;
      },
      async startWorker(extra: Record<string, string> = {}) {
        const worker = await startWorker({ ...env, ...extra });
        stops.push(() => worker.stop());
        return worker;
      },
      async db() {
        if (!database) throw new Error('db() needs a PostgreSQL site');
        if (!client) {
          client = new Client({ connectionString: database.url });
          await client.connect();
        }
        return client;
      },
      signedInUser(email: string) {
        if (!database) throw new Error('signedInUser() needs a PostgreSQL site');
        return insertSignedInUser(database.url, email);
      },
    };
    if (options.seed) {
      if (!database) throw new Error('seed needs a PostgreSQL site');
      await options.seed(database.url);
    }
    return base;
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * The site as the tests run it: the built web process on its own free port with its own DATA_DIR,
 * on PostgreSQL (unless the test is about the embedded database), with what `options` add. Owns
 * everything it starts: close() stops and removes it all, and a failed start stops what started.
 */
export async function startSite(options: SiteOptions = {}): Promise<Site> {
  const { stops, stopAll, ...base } = await prepareSite(options);
  try {
    const app = await startApp(base.env);
    stops.push(() => app.stop());
    const worker = options.worker ? await base.startWorker() : undefined;
    return { ...base, url: app.url, port: app.port, app, worker, close: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** What an in-process site may be: a web app with its files, database (the embedded one too), Redis and mail. */
export type InProcessSiteOptions = Omit<SiteOptions, 'worker' | 'browser'>;

/**
 * A site whose web app runs in the test's own process (test/support/in-process-app.ts). startApp()
 * adds another in-process app of the same site (other settings, same database: not a second
 * process, so not for what processes share); startWorker() starts the BUILT worker, a process.
 */
export type InProcessSite = Omit<Site, 'app' | 'worker' | 'browser' | 'startApp'> & {
  app: InProcessApp;
  startApp(env?: Record<string, string>): Promise<InProcessApp>;
};

/**
 * startSite() for the tests whose subject is the app's answers, not processes, browsers or the build:
 * the same site (files, database, Redis, mail, environment) with the web app created in this jest
 * process from the same factory as the built process (src/app.factory.ts).
 */
export async function startInProcessSite(options: InProcessSiteOptions = {}): Promise<InProcessSite> {
  const { stops, stopAll, startApp: _built, browser: _browser, ...base } = await prepareSite(options);
  try {
    // Loaded here, not at the top: the app's sources cost a second of CPU to load, and built-site tests need none of it.
    const { startAppInProcess } = await import('./in-process-app');
    const app = await startAppInProcess(base.env);
    stops.push(() => app.stop());
    const startAnother = async (extra: Record<string, string> = {}) => {
      const { PORT: _port, ...shared } = base.env;
      const another = await startAppInProcess({ ...shared, MIGRATE_ON_START: 'false', ...extra });
      stops.push(() => another.stop());
      return another;
    };
    return { ...base, url: app.url, port: app.port, app, startApp: startAnother, close: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** A started site's handle for a describe: started in beforeAll, closed in afterAll. */
function useStarted<T extends { close(): Promise<void> }>(start: () => Promise<T>): T {
  let site: T | undefined;
  let starting: Promise<T> | undefined;
  beforeAll(async () => {
    starting = start();
    site = await starting;
  });
  afterAll(async () => {
    // Also a start still under way when beforeAll timed out: what it started is stopped, not left running.
    const started = site ?? (await starting?.catch(() => undefined));
    await started?.close();
  });
  return new Proxy({} as T, {
    get(_, key) {
      if (!site) throw new Error(`The site is not running (read ${String(key)} inside a test or hook)`);
      return Reflect.get(site, key);
    },
  });
}

/**
 * startSite() in beforeAll and close() in afterAll for the enclosing describe; the returned handle
 * reads the running site (so `site.url` works in the tests).
 */
export function useSite(options: SiteOptions = {}): Site {
  return useStarted(() => startSite(options));
}

/** useSite() with the web app in this process (startInProcessSite). */
export function useInProcessSite(options: InProcessSiteOptions = {}): InProcessSite {
  return useStarted(() => startInProcessSite(options));
}
