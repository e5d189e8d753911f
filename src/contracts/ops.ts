import type { ErrorType } from './error-report';

/**
 * The admin pages' data (/admin, /admin/errors, /admin/queues; admins only, see src/modules/ops).
 * Field names follow the admin API (/api/v1/admin/client_errors); dates are ISO strings.
 */

/** Which error groups /admin/errors lists: all, the browser's, or the server's own 5xx (SERVER_ERROR). */
export const ERROR_SCOPES = ['all', 'client', 'server'] as const;
export type ErrorScope = (typeof ERROR_SCOPES)[number];
export const isErrorScope = (value: string): value is ErrorScope => (ERROR_SCOPES as readonly string[]).includes(value);

/** Error groups the errors page shows at most, most recently seen first. */
export const ERROR_GROUPS_SHOWN = 100;

export interface ErrorGroupView {
  fingerprint: string;
  error_type: ErrorType;
  message: string;
  backtrace: string | null;
  path: string | null;
  build_id: string | null;
  count: number;
  first_seen_at: string;
  last_seen_at: string;
}

/** Where background jobs run: BullMQ in Redis (the worker runs them), or inside the web process. */
export type QueueMode = 'redis' | 'inline';

export interface QueueCountsView {
  name: string;
  waiting: number;
  active: number;
  delayed: number;
  /** Inside the web process: since it started. */
  completed: number;
  failed: number;
}

export interface AdminQueuesData {
  mode: QueueMode;
  /** The web process's own queues (mode 'inline'); empty with Redis, where the dashboard shows BullMQ's. */
  queues: QueueCountsView[];
}
