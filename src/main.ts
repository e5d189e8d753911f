import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { type AppConfig, applyNodeEnv, ConfigError, imageStoreProblem, loadConfig } from './config/app-config';
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
  const storeProblem = imageStoreProblem(config);
  if (storeProblem) throw new ConfigError([storeProblem]);
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
  // Every setting that does not fit with another, in one line (what they switch stays off).
  if (config.warnings.length) logger.warn(`Settings that do not fit together: ${config.warnings.join('; ')}`);
  // Honest about readiness: what /readyz would answer now, and what to do about it.
  const report = await app.get(Readiness).report();
  const where = `${config.http.publicUrl} (${config.database.kind} database)`;
  const problems = problemsOf(report).join('; ');
  if (report.status === 'ready') logger.log(`Site ready at ${where}`);
  else if (report.status === 'degraded') logger.warn(`Site ready at ${where}, degraded: ${problems}`);
  else logger.error(`Site up at ${where} but not ready (/readyz answers 503): ${problems}`);
  logger.log(features(config));
}

/** What is on, in one line; in the local try-out, what a newcomer can do and where. */
function features(config: AppConfig): string {
  const site = config.http.publicUrl;
  const { has_login, has_payment } = config.public.settings;
  const payments = !has_payment ? 'off' : config.public.testPayments ? 'TEST MODE (the local test checkout: no money is taken)' : 'Stripe';
  const mail = config.mail.smtpUrl ? 'sent by SMTP' : `written to ${config.mail.dir}`;
  const summary = `Accounts ${has_login ? 'on' : 'off'}; credits and payments ${payments}; image tool ${has_payment ? `on (${site}/tools/image)` : 'off'}; mail ${mail}`;
  if (!config.local) return summary;
  return (
    `Local try-out (nothing configured): ${summary}. Sign up at ${site}/auth/signup: the confirmation link is printed here and written to ${config.mail.dir}. ` +
    `The first account you confirm is this site's admin (${site}/admin, orders at ${site}/admin/orders). Set NODE_ENV, DATABASE_URL or PUBLIC_URL to leave the try-out.`
  );
}

main().catch((error: unknown) => {
  // A bad configuration names the variable, a locked embedded database its holder; anything else prints its stack.
  console.error(error instanceof ConfigError || error instanceof DataDirLockedError ? error.message : error);
  process.exit(1);
});
