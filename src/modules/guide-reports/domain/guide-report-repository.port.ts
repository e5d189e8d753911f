import type { GuideReportState } from 'src/contracts/guide-reports';
import type { GuideReport } from './guide-report';

/** Where guide reports are kept. */
export abstract class GuideReportRepository {
  abstract add(report: GuideReport): Promise<void>;
  /**
   * The digest's claim, one caller at a time across processes: when no report was notified within
   * `quietMs` before `now`, marks every report not yet notified as notified at `now` and returns
   * them (oldest first); else returns none and changes nothing.
   */
  abstract claimDue(now: Date, quietMs: number): Promise<GuideReport[]>;
  /** Marks the report handled at `at` unless it already was (the first time stays); null when there is no such report. */
  abstract markHandled(id: string, at: Date): Promise<GuideReport | null>;
  /** One level's reports or every level's, in a state, newest first. */
  abstract list(filter: { level?: number; state: GuideReportState }, limit: number, offset: number): Promise<{ reports: GuideReport[]; total: number }>;
  /** The newest open reports of each of these levels, at most `perLevel` each. */
  abstract newestOpen(levels: readonly number[], perLevel: number): Promise<GuideReport[]>;
  /** Deletes the reports created before `cutoff`; returns how many. */
  abstract deleteCreatedBefore(cutoff: Date): Promise<number>;
}
