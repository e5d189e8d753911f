import type { ErrorType } from 'src/contracts/error-report';
import type { ErrorOccurrence, ErrorReport } from './error-report';

/** Where error groups are kept. */
export abstract class ErrorReportRepository {
  /** Adds one occurrence: a new group, or count + 1 and last seen on the existing one. */
  abstract record(occurrence: ErrorOccurrence, fingerprint: string, at: Date): Promise<void>;

  /** The most recently seen groups first; only those of `types` when given. */
  abstract latest(limit: number, types?: readonly ErrorType[]): Promise<ErrorReport[]>;
}
