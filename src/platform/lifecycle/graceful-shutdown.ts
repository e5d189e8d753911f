import { Logger } from '@nestjs/common';

/**
 * How long the worker waits for running jobs on SIGTERM: below the orchestrator's grace period
 * (30 s in compose). Anything a job waits on (an SMTP server, say) must give up sooner, or the job
 * is cut off mid-way and run again later (a mail sent twice).
 */
export const WORKER_SHUTDOWN_TIMEOUT_MS = 25_000;

/**
 * Graceful shutdown of a process on SIGTERM or SIGINT: `app.close()` runs the Nest shutdown hooks
 * (stop taking work, finish what is running, close Redis and the database), then the process exits
 * 0. A shutdown that hangs is cut short after `timeoutMs` (exit 1), so the orchestrator is never
 * kept waiting. A signal sent again (npm passes a signal on to its script, so Ctrl-C or a signal to
 * npm's process group arrives twice) never cuts the drain: it is logged, and the bound stays.
 * SIGKILL stops at once.
 */
export function closeOnSignals(
  app: { close(): Promise<void> },
  { timeoutMs, doing, drain }: { timeoutMs: number; doing: string; drain?: () => Promise<void> },
): void {
  const logger = new Logger('Main');
  let deadline: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (deadline !== undefined) {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      logger.warn(`${signal} received again: still ${doing} (at most ${left} s more); send SIGKILL to stop at once`);
      return;
    }
    deadline = Date.now() + timeoutMs;
    logger.log(`${signal} received: ${doing}`);
    setTimeout(() => process.exit(1), timeoutMs).unref();
    // First what must end while the database is open (the HTTP requests in flight), then the hooks.
    (drain ?? (() => Promise.resolve()))()
      .then(() => app.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'Shutdown failed');
          process.exit(1);
        },
      );
  };
  // on, not once: without a listener, a second signal would end the process mid-drain.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, onSignal);
}

/**
 * Stops accepting connections (a new one is refused), lets the requests in flight finish, and cuts
 * the connections still open after `limitMs`. Nest's own close() closes the HTTP server only after
 * every shutdown hook, i.e. after the database is gone: in-flight requests would fail.
 */
export async function drainHttp(
  server: { closeAllConnections(): void; closeIdleConnections(): void },
  close: () => Promise<void>,
  limitMs: number,
): Promise<void> {
  const logger = new Logger('Main');
  // A keep-alive connection whose request just finished would otherwise hold the close up.
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  const timer = setTimeout(() => {
    logger.warn(`Requests still running after ${limitMs / 1000} s: their connections are closed`);
    server.closeAllConnections();
  }, limitMs);
  try {
    await close();
  } finally {
    clearInterval(idle);
    clearTimeout(timer);
  }
}
