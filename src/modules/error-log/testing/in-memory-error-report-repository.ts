import type { ErrorType } from 'src/contracts/error-report';
import { ErrorReport, type ErrorOccurrence } from '../domain/error-report';
import { ErrorReportRepository } from '../domain/error-report-repository.port';

/** Error groups in memory, for specs: one group per fingerprint, counted. test/error-log.int-spec.ts proves the SQL. */
export class InMemoryErrorReportRepository extends ErrorReportRepository {
  readonly groups: ErrorReport[] = [];

  async record(occurrence: ErrorOccurrence, fingerprint: string, at: Date): Promise<void> {
    const group = this.groups.find((g) => g.fingerprint === fingerprint);
    if (group) Object.assign(group, { count: group.count + 1, lastSeenAt: at });
    else this.groups.push(Object.assign(new ErrorReport(), occurrence, { id: this.groups.length + 1, fingerprint, count: 1, firstSeenAt: at, lastSeenAt: at }));
  }

  async latest(limit: number, types?: readonly ErrorType[]): Promise<ErrorReport[]> {
    return this.groups
      .filter((g) => !types || types.includes(g.errorType))
      .sort((a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime() || b.id - a.id)
      .slice(0, limit)
      .map((g) => ({ ...g }));
  }
}
