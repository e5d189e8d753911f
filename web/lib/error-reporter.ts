import type { ErrorType } from 'src/contracts/error-report';

const reported = new Set<string>();
let context: { buildId: string; userEmail?: string } = { buildId: 'unknown' };

export function configureErrorReporter(next: typeof context): void {
  context = next;
}

/**
 * Sends an error to POST /api/v1/log_client_error. Never throws and never reports the same error
 * twice on one page; a failed report only reaches the console.
 */
export function reportError(errorType: ErrorType, message: string, backtrace?: string): void {
  const key = `${errorType}\n${message}`;
  if (reported.has(key) || typeof window === 'undefined') return;
  reported.add(key);
  const body = {
    error: {
      error_type: errorType,
      origin_type: 1,
      message: message.slice(0, 2000),
      backtrace: backtrace?.slice(0, 8000) ?? null,
      user_email: context.userEmail ?? null,
      path: window.location.pathname.slice(0, 2048),
      build_id: context.buildId.slice(0, 64),
    },
  };
  fetch('/api/v1/log_client_error', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    keepalive: true,
  }).catch((error: unknown) => console.error('Error report failed', error));
}

/** Uncaught errors and rejected promises of the page: CLIENT_ERROR. */
export function installGlobalErrorReporting(): void {
  window.addEventListener('error', (event) => {
    reportError('CLIENT_ERROR', event.message || String(event.error), (event.error as Error | undefined)?.stack);
  });
  window.addEventListener('unhandledrejection', (event) => {
    const reason = event.reason as Error | undefined;
    reportError('CLIENT_ERROR', reason?.message ?? String(event.reason), reason?.stack);
  });
}
