import { reportError } from './error-reporter';
import { notify } from './toasts';

/** A response with a status from 400 to 599; `errors` are the server's messages. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: string[],
  ) {
    super(errors.join(', ') || `Request failed with status ${status}`);
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
 * on the statuses above. A 5xx is reported to the error log; a network failure shows the toast
 * 'fetch exception:' with the text, and is rethrown.
 */
export async function apiRequest<T>(method: Method, path: string, body?: unknown): Promise<ApiResponse<T>> {
  const retries = IDEMPOTENT.has(method) ? 0 : 1;
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        credentials: 'same-origin',
      });
    } catch (error) {
      notify(`fetch exception: ${(error as Error).message}`, 'error');
      throw error;
    }
    if (response.status >= 500) reportError('API_ERROR', `${method} ${path} answered ${response.status}`);
    if (attempt < retries && RETRY_STATUSES.has(response.status)) continue;
    const data = (response.status === 204 ? null : await response.json().catch(() => null)) as T;
    if (response.status >= 400) {
      const errors = (data as { errors?: unknown } | null)?.errors;
      throw new ApiError(response.status, Array.isArray(errors) ? errors.map(String) : []);
    }
    return { status: response.status, headers: response.headers, data };
  }
}
