import type { GuideReport } from './guide-report';

/** Where guide reports are kept. */
export abstract class GuideReportRepository {
  abstract add(report: GuideReport): Promise<void>;
  abstract findById(id: string): Promise<GuideReport | null>;
  /** Records that the admins were mailed; false when it already was (a repeated job). */
  abstract markNotified(id: string, at: Date): Promise<boolean>;
  /** Deletes the reports created before `cutoff`; returns how many. */
  abstract deleteCreatedBefore(cutoff: Date): Promise<number>;
}
