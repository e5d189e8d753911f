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

/** Mail the outbox gave up on that /admin lists at most, newest first (kept 7 days). */
export const GIVEN_UP_MAIL_SHOWN = 20;

/** A message the outbox gave up on: no address, no body; the error is its codes only. */
export interface GivenUpMailView {
  id: string;
  subject: string;
  created_at: string;
  failed_at: string;
  attempts: number;
  last_error: string;
}

/** What needs an operator now, on /admin: mail given up, and a named Redis problem (e.g. out of memory). */
export interface AdminAttentionData {
  mail_given_up: GivenUpMailView[];
  /** Set while Redis refuses writes or is unreachable, in words ("Redis is out of memory (maxmemory)…"). */
  redis_problem: string | null;
}

/** Ops' section of the page data (src/modules/ops/adapters/pages/ops.pages.ts): the admin pages only (route access 'admin'). */
export interface OpsPages {
  /** The most recently seen error groups first. */
  errors(scope: ErrorScope): Promise<ErrorGroupView[]>;
  queues(): Promise<AdminQueuesData>;
  attention(): Promise<AdminAttentionData>;
}

// Adds the section to PageData without editing page-data.ts (declaration merging): see PageData.
declare module './page-data' {
  interface PageData {
    readonly ops: OpsPages;
  }
}
