import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { applyNodeEnv, ConfigError, loadConfig } from './config/app-config';
import { createWebApp } from './app.factory';
import { DataDirLockedError } from './platform/database/data-dir-lock';
import { problemsOf, Readiness } from './platform/health/readiness.service';
import { closeOnSignals, drainHttp } from './platform/lifecycle/graceful-shutdown';

const SHUTDOWN_TIMEOUT_MS = 20_000;
/** How long requests in flight may take to finish on SIGTERM (within SHUTDOWN_TIMEOUT_MS). */
const DRAIN_TIMEOUT_MS = 10_000;

/** The web process: HTTP API and server-rendered pages. */
async function main(): Promise<void> {
  const config = loadConfig();
  applyNodeEnv(config);
  const app = await createWebApp(config, process.cwd());
  // Stop accepting, finish in-flight requests (bounded), then close the pool, Redis and the embedded
  // database. Installed before listening: a SIGTERM right after /healthz first answers is graceful too.
  const fastify = app.getHttpAdapter().getInstance();
  closeOnSignals(app, {
    timeoutMs: SHUTDOWN_TIMEOUT_MS,
    doing: 'shutting down',
    drain: () => drainHttp(app.getHttpServer(), () => fastify.close(), DRAIN_TIMEOUT_MS),
  });
  await app.listen({ port: config.http.port, host: config.http.host });
  const logger = new Logger('Main');
  // Honest about readiness: what /readyz would answer now, and what to do about it.
  const report = await app.get(Readiness).report();
  const where = `${config.http.publicUrl} (${config.database.kind} database)`;
  const problems = problemsOf(report).join('; ');
  if (report.status === 'ready') logger.log(`Site ready at ${where}`);
  else if (report.status === 'degraded') logger.warn(`Site ready at ${where}, degraded: ${problems}`);
  else logger.error(`Site up at ${where} but not ready (/readyz answers 503): ${problems}`);
}

main().catch((error: unknown) => {
  // A bad configuration names the variable, a locked embedded database its holder; anything else prints its stack.
  console.error(error instanceof ConfigError || error instanceof DataDirLockedError ? error.message : error);
  process.exit(1);
});
