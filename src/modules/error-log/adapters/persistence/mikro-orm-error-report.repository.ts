import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { ErrorType } from 'src/contracts/error-report';
import type { ErrorOccurrence, ErrorReport } from '../../domain/error-report';
import { ErrorReportRepository } from '../../domain/error-report.repository';
import { ErrorReportSchema } from './error-report.entity';

/** Error groups kept at most; the least recently seen go first. */
export const MAX_ERROR_GROUPS = 10_000;

@Injectable()
export class MikroOrmErrorReportRepository extends ErrorReportRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async record(o: ErrorOccurrence, fingerprint: string, at: Date): Promise<void> {
    // One statement, so concurrent reports of the same error never race into duplicates.
    await this.em.getConnection().execute(
      `insert into error_reports
         (fingerprint, error_type, origin_type, message, backtrace, user_email, path, build_id, count, first_seen_at, last_seen_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)
       on conflict (fingerprint) do update set
         count = error_reports.count + 1,
         last_seen_at = excluded.last_seen_at,
         user_email = coalesce(excluded.user_email, error_reports.user_email),
         path = coalesce(excluded.path, error_reports.path),
         build_id = coalesce(excluded.build_id, error_reports.build_id)`,
      [
        fingerprint,
        o.errorType,
        o.originType,
        o.message,
        o.backtrace ?? null,
        o.userEmail ?? null,
        o.path ?? null,
        o.buildId ?? null,
        at,
        at,
      ],
    );
    // Trimming is cheap but not free: about one insert in fifty keeps the table bounded.
    if (Math.random() < 0.02) await this.trim();
  }

  /** Keeps the `max` most recently seen groups. */
  async trim(max = MAX_ERROR_GROUPS): Promise<void> {
    await this.em.getConnection().execute(
      `delete from error_reports where id in (select id from error_reports order by last_seen_at desc offset ?)`,
      [max],
    );
  }

  latest(limit: number, types?: readonly ErrorType[]): Promise<ErrorReport[]> {
    return this.em.find(ErrorReportSchema, types ? { errorType: { $in: [...types] } } : {}, { orderBy: { lastSeenAt: 'desc' }, limit });
  }
}
