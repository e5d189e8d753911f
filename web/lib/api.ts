import type { Translate } from 'web/i18n/i18n';
import { reportError } from './error-reporter';
import { isInsufficientCredits, showLowCredit } from './low-credit';
import { authorizationHeader, takeToken } from './session';
import { notify } from './toasts';

/**
 * A response with a status from 400 to 599; `errors` are the server's messages, `message` them
 * joined (or the status), `code` the server's error code ('CREDITS.INSUFFICIENT') and `body` the
 * parsed answer, for errors that carry more than messages.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: string[],
    message: string,
    readonly code?: string,
    readonly body?: unknown,
  ) {
    super(message);
  }
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  data: T;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Statuses worth one more try, for requests that are not idempotent (spec). */
const RETRY_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504]);
const IDEMPOTENT = new Set<Method>(['GET', 'PUT', 'DELETE']);

/**
 * The browser's JSON API client. JSON content-type and accept headers; each response gives status,
 * headers and data; 400-599 raise ApiError. Idempotent requests are retried 0 times, others once
 * on the statuses above. A 5xx is reported to the error log; a 402 for missing credits opens the
 * low-credit modal (the ApiError is still thrown; callers need no toast of their own for it); a
 * network failure shows the toast 'fetch exception:' with the text, and is rethrown. `t`
 * translates the toast and the status message. `retry: false` sends a request once whatever the
 * answer (one that charges credits: a second try could do the work twice).
 */
export function apiRequest<T>(t: Translate, method: Method, path: string, body?: unknown, options?: SendOptions): Promise<ApiResponse<T>> {
  // A JSON content-type with no body is refused by the server (Fastify): only send it with one.
  const json = body !== undefined;
  return send<T>(t, method, path, json ? JSON.stringify(body) : undefined, { ...(json ? { 'content-type': 'application/json' } : {}), ...options?.headers }, options);
}

/** POSTs form data (multipart, with files; the browser sets its content-type) and reads a JSON answer, as apiRequest does. */
export const apiUpload = <T>(t: Translate, path: string, form: FormData, options?: SendOptions) => send<T>(t, 'POST', path, form, {}, options);

interface SendOptions {
  retry?: boolean;
  /** More request headers (an Idempotency-Key, which makes a money operation safe to retry). */
  headers?: Record<string, string>;
}

async function send<T>(t: Translate, method: Method, path: string, body: BodyInit | undefined, headers: Record<string, string>, options?: SendOptions): Promise<ApiResponse<T>> {
  const retries = options?.retry === false || IDEMPOTENT.has(method) ? 0 : 1;
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        headers: { accept: 'application/json', ...headers, ...authorizationHeader() },
        body,
        credentials: 'same-origin',
      });
    } catch (error) {
      notify(t('api.fetchException', { message: (error as Error).message }), 'error');
      throw error;
    }
    takeToken(response.headers);
    if (response.status >= 500) reportError('API_ERROR', `${method} ${path} answered ${response.status}`);
    if (attempt < retries && RETRY_STATUSES.has(response.status)) continue;
    const data = (response.status === 204 ? null : await response.json().catch(() => null)) as T;
    if (response.status >= 400) {
      const { errors, code } = (data ?? {}) as { errors?: unknown; code?: unknown };
      const messages = Array.isArray(errors) ? errors.map(String) : [];
      // Not enough credits: the low-credit modal opens, whoever made the request.
      if (isInsufficientCredits(response.status, data)) showLowCredit(data);
      const message = messages.join(', ') || t('api.requestFailed', { status: response.status });
      throw new ApiError(response.status, messages, message, typeof code === 'string' ? code : undefined, data);
    }
    return { status: response.status, headers: response.headers, data };
  }
}
