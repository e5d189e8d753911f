import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { GuideReportState } from 'src/contracts/guide-reports';
import type { GuideReport } from '../../domain/guide-report';
import { GuideReportRepository } from '../../domain/guide-report-repository.port';
import { GuideReportSchema } from './guide-report.entity';

/** Guide reports through MikroORM; a fork per call, as jobs and schedules run outside any request. */
@Injectable()
export class MikroOrmGuideReportRepository extends GuideReportRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async add(report: GuideReport): Promise<void> {
    await this.em.fork().insert(GuideReportSchema, report);
  }

  claimDue(now: Date, quietMs: number): Promise<GuideReport[]> {
    return this.em.fork().transactional(async (em) => {
      // One claim at a time (two workers, 60 jobs at once): the second sees the first one's mail.
      await em.execute(`select pg_advisory_xact_lock(hashtextextended('guide-reports:digest', 22))`);
      const [last] = await em.execute<{ at: Date | null }[]>(`select max(notified_at) as at from guide_reports`);
      if (last?.at && new Date(last.at).getTime() > now.getTime() - quietMs) return [];
      const rows = await em.execute<Record<string, unknown>[]>(
        `update guide_reports set notified_at = ? where notified_at is null
         returning id, level_number, kind, message, created_at, notified_at, handled_at`,
        [now],
      );
      return rows.map((row) => em.map(GuideReportSchema, row)).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    });
  }

  async markHandled(id: string, at: Date): Promise<GuideReport | null> {
    const em = this.em.fork();
    // Only an open report changes: a repeat, or 20 at once, keep the first time (the row lock serialises them).
    await em.nativeUpdate(GuideReportSchema, { id, handledAt: null }, { handledAt: at });
    return em.findOne(GuideReportSchema, { id });
  }

  async list(filter: { level?: number; state: GuideReportState }, limit: number, offset: number) {
    const where = {
      ...(filter.level !== undefined ? { levelNumber: filter.level } : {}),
      ...(filter.state === 'open' ? { handledAt: null } : filter.state === 'handled' ? { handledAt: { $ne: null } } : {}),
    };
    const [reports, total] = await this.em.fork().findAndCount(GuideReportSchema, where, { orderBy: { createdAt: 'desc', id: 'asc' }, limit, offset });
    return { reports, total };
  }

  async newestOpen(levels: readonly number[], perLevel: number): Promise<GuideReport[]> {
    if (!levels.length) return [];
    const em = this.em.fork();
    // The levels as one JSON parameter: a list of any length is one placeholder.
    const rows = await em.execute<Record<string, unknown>[]>(
      `select id, level_number, kind, message, created_at, notified_at, handled_at from (
         select *, row_number() over (partition by level_number order by created_at desc, id) as n from guide_reports
         where handled_at is null and level_number in (select jsonb_array_elements_text(?::jsonb)::int)
       ) newest where n <= ? order by level_number, created_at desc, id`,
      [JSON.stringify(levels), perLevel],
    );
    return rows.map((row) => em.map(GuideReportSchema, row));
  }

  deleteCreatedBefore(cutoff: Date): Promise<number> {
    return this.em.fork().nativeDelete(GuideReportSchema, { createdAt: { $lt: cutoff } });
  }
}
