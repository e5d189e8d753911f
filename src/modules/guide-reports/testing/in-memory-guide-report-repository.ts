import type { GuideReport } from '../domain/guide-report';
import { GuideReportRepository } from '../domain/guide-report-repository.port';

const openNewestFirst = (rows: Map<string, GuideReport>, level: number) =>
  [...rows.values()].filter((r) => r.levelNumber === level && !r.handledAt).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());

/**
 * Guide reports in memory, for specs: the digest's claim, marking handled once, lists newest
 * first, as the SQL does them. test/guide-reports.int-spec.ts proves the SQL.
 */
export class InMemoryGuideReportRepository extends GuideReportRepository {
  readonly rows = new Map<string, GuideReport>();
  async add(report: GuideReport) {
    this.rows.set(report.id, { ...report });
  }
  async claimDue(now: Date, quietMs: number) {
    const all = [...this.rows.values()];
    if (all.some((r) => r.notifiedAt && r.notifiedAt.getTime() > now.getTime() - quietMs)) return [];
    const due = all.filter((r) => !r.notifiedAt).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    for (const row of due) row.notifiedAt = now;
    return due.map((row) => ({ ...row }));
  }
  async markHandled(id: string, at: Date) {
    const row = this.rows.get(id);
    if (row && !row.handledAt) row.handledAt = at;
    return row ? { ...row } : null;
  }
  async list(filter: { level?: number; state: 'open' | 'handled' | 'all' }, limit: number, offset: number) {
    const all = [...this.rows.values()]
      .filter((r) => (filter.level === undefined || r.levelNumber === filter.level) && (filter.state === 'all' || (filter.state === 'open') === !r.handledAt))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    return { reports: all.slice(offset, offset + limit), total: all.length };
  }
  async newestOpen(levels: readonly number[], perLevel: number) {
    return levels.flatMap((level) => (openNewestFirst(this.rows, level).slice(0, perLevel)));
  }
  async deleteCreatedBefore(cutoff: Date) {
    const old = [...this.rows.values()].filter((r) => r.createdAt < cutoff);
    old.forEach((r) => this.rows.delete(r.id));
    return old.length;
  }
}
