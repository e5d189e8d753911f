import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { ErrorType } from 'src/contracts/error-report';
import type { ErrorOccurrence, ErrorReport } from '../../domain/error-report';
import { ErrorReportRepository } from '../../domain/error-report-repository.port';
import { ErrorReportSchema } from './error-report.entity';

/**
 * Error groups kept at most, the least recently seen going first; the server's own (SERVER_ERROR)
 * have a bound of their own, so a flood of anonymous browser reports cannot flush them.
 */
export const ERROR_GROUP_LIMITS = { client: 10_000, server: 1_000 } as const;
type Scope = keyof typeof ERROR_GROUP_LIMITS;
const SCOPE_WHERE: Record<Scope, string> = { client: `error_type <> 'SERVER_ERROR'`, server: `error_type = 'SERVER_ERROR'` };

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
    if (Math.random() < 0.02) await this.trimScope(o.errorType === 'SERVER_ERROR' ? 'server' : 'client', ERROR_GROUP_LIMITS);
  }

  /** Keeps the most recently seen groups of each scope, `limits` of them. */
  async trim(limits: Record<Scope, number> = ERROR_GROUP_LIMITS): Promise<void> {
    await this.trimScope('client', limits);
    await this.trimScope('server', limits);
  }

  /**
   * Deletes the groups past the bound, skipping rows a concurrent report holds (they are being
   * seen, so recent): a trim never waits on a lock, so it cannot deadlock with reports or another trim.
   */
  private async trimScope(scope: Scope, limits: Record<Scope, number>): Promise<void> {
    const where = SCOPE_WHERE[scope];
    await this.em.getConnection().execute(
      `delete from error_reports where id in (
         select id from error_reports
         where id in (select id from error_reports where ${where} order by last_seen_at desc, id desc offset ?)
         for update skip locked)`,
      [limits[scope]],
    );
  }

  latest(limit: number, types?: readonly ErrorType[]): Promise<ErrorReport[]> {
    return this.em.find(ErrorReportSchema, types ? { errorType: { $in: [...types] } } : {}, { orderBy: { lastSeenAt: 'desc' }, limit });
  }
}
