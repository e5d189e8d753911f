import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createWebApp } from 'src/app.factory';
import { applyNodeEnv, ConfigError, imageStoreProblem, loadConfig } from 'src/config/app-config';
import { freePort, ROOT } from './app-process';
import { until } from './until';

/** The web app created in the test's own process: what the built process offers a test, without the process. */
export interface InProcessApp {
  url: string;
  port: number;
  /** The Nest application itself: `nest.get(Service)`, or Fastify's `inject` through `nest.getHttpAdapter().getInstance()`. */
  nest: NestFastifyApplication;
  /** The JSON log lines the app wrote (what the built process writes to stdout). */
  stdout(): string;
  /** The same as stdout(): in process, nothing of the app's goes to stderr. */
  output(): string;
  /** Resolves once the log holds `text`; fails naming the text after `timeoutMs`. */
  logged(text: string | RegExp, timeoutMs?: number): Promise<void>;
  /** Closes the app as SIGTERM would close the process (pool, Redis, timers); resolves with 0 once closed. */
  stop(): Promise<number>;
}

/**
 * The built web process's set-up (src/app.factory.ts, as src/main.ts calls it) in this jest process,
 * listening on its own free port on loopback: the same environment gives the same app, the same
 * routes, hooks and error mapping, and the pages from the built client and SSR bundle. Costs no
 * process start (node, the bundle, the compile cache) per test file.
 *
 * Apps one after another in a file each have their own log. Two at once share what is global to a
 * module registry (a jest test file): Nest's static Logger and nestjs-pino's root logger, so lines
 * logged outside a request go to the newer app's log; and module state, so two in-process apps are
 * not two processes (a test about what processes share starts the built site).
 */
export async function startAppInProcess(env: Record<string, string> = {}): Promise<InProcessApp> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const url = `http://127.0.0.1:${port}`;
  // As the built process gets it (test/support/app-process.ts): loopback, and a shared DATA_DIR.
  const config = loadConfig({ HOST: '127.0.0.1', IMAGE_STORE_SHARED: 'true', ...env, PORT: String(port) });
  // jest gives each test file its own process.env: the production React build, as the site runs, stays in this file.
  applyNodeEnv(config);
  const storeProblem = imageStoreProblem(config);
  if (storeProblem) throw new ConfigError([storeProblem]);
  freshLoggerRoot();
  let log = '';
  const nest = await createWebApp(config, ROOT, { logs: { write: (line: string) => void (log += line) } });
  try {
    await nest.listen({ port, host: config.http.host });
  } catch (error) {
    await nest.close();
    throw error;
  }
  let closed: Promise<number> | undefined;
  return {
    url,
    port,
    nest,
    stdout: () => log,
    output: () => log,
    async logged(text, timeoutMs) {
      await until(`the log line ${String(text)}`, () => (typeof text === 'string' ? log.includes(text) : text.test(log)), timeoutMs);
    },
    stop: () => (closed ??= nest.close().then(() => 0)),
  };
}

let created = false;

/**
 * nestjs-pino builds one pino-http per module registry, on first use, and every later app of the
 * registry would write through it (the first app's log and level): each app here gets its own. The
 * reset is the one nestjs-pino keeps for tests, not exported from its index.
 */
function freshLoggerRoot(): void {
  if (created) {
    const pinoLogger = createRequire(__filename)(join(ROOT, 'node_modules/nestjs-pino/dist/cjs/PinoLogger.js')) as { __resetOutOfContextForTests(): void };
    pinoLogger.__resetOutOfContextForTests();
  }
  created = true;
}
