import { Logger } from '@nestjs/common';

/**
 * Graceful shutdown of a process on SIGTERM or SIGINT: `app.close()` runs the Nest shutdown hooks
 * (stop taking work, finish what is running, close Redis and the database), then the process exits
 * 0. A shutdown that hangs is cut short after `timeoutMs` (exit 1), so the orchestrator is never
 * kept waiting.
 */
export function closeOnSignals(app: { close(): Promise<void> }, { timeoutMs, doing }: { timeoutMs: number; doing: string }): void {
  const logger = new Logger('Main');
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.log(`${signal} received: ${doing}`);
      setTimeout(() => process.exit(1), timeoutMs).unref();
      app.close().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'Shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}
