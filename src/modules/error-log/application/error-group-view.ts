import type { ErrorGroupView } from 'src/contracts/ops';
import type { ErrorReport } from '../domain/error-report';

/** One error group as the admin screens and the admin API show it (the API adds who and where it came from). */
export function toErrorGroupView(r: ErrorReport): ErrorGroupView {
  return {
    fingerprint: r.fingerprint,
    error_type: r.errorType,
    message: r.message,
    backtrace: r.backtrace ?? null,
    path: r.path ?? null,
    build_id: r.buildId ?? null,
    count: r.count,
    first_seen_at: r.firstSeenAt.toISOString(),
    last_seen_at: r.lastSeenAt.toISOString(),
  };
}
