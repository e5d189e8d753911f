import 'reflect-metadata';
import { Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { applyNodeEnv, ConfigError, imageStoreProblem, loadConfig } from './config/app-config';
import { closeOnSignals, WORKER_SHUTDOWN_TIMEOUT_MS } from './platform/lifecycle/graceful-shutdown';
import { SharpImageCodec } from './modules/image-tool/adapters/sharp/sharp-image-codec.adapter';
import { WorkerModule } from './worker.module';

/** The worker process (`npm run worker`): runs the background jobs queued in Redis; no HTTP listener. */
async function main(): Promise<void> {
  // The web process (or `npm run migrate`) owns migrations and the content import.
  const config = loadConfig(undefined, { MIGRATE_ON_START: 'false', CONTENT_IMPORT_ON_START: 'false' });
  applyNodeEnv(config);
  if (!config.redis.url) {
    console.log('REDIS_URL is not set: the web process (npm start) runs background jobs itself, so no worker is needed.');
    return;
  }
  if (config.database.kind === 'embedded') {
    console.error(
      'The worker needs DATABASE_URL: the embedded database belongs to the web process. Set DATABASE_URL for both ' +
        'processes, or unset REDIS_URL so the web process runs the jobs itself.',
    );
    process.exitCode = 1;
    return;
  }
  const storeProblem = imageStoreProblem(config);
  if (storeProblem) throw new ConfigError([storeProblem]);
  // One libvips thread and no cache per conversion, and only the image formats we take.
  SharpImageCodec.configureSharpForWorkers();
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  // Stop fetching jobs and let the running ones finish; a job cut short by the timeout is picked
  // up again once its lock expires. Installed before "ready": a signal right after it is graceful too.
  closeOnSignals(app, { timeoutMs: WORKER_SHUTDOWN_TIMEOUT_MS, doing: 'finishing running jobs, then stopping' });
  const logger = new NestLogger('Main');
  logger.log(`Worker ready (${config.database.kind} database)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
