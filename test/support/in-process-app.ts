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
 * One app per test file at a time: Nest's static Logger and React's build choice are per module
 * registry (a jest test file), so a second app's lines would land in the first one's log.
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
