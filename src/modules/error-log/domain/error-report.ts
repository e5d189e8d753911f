import { createHash } from 'node:crypto';
import type { ErrorType } from 'src/contracts/error-report';

/** What a reporter tells us about one occurrence of an error. */
export interface ErrorOccurrence {
  errorType: ErrorType;
  originType: number;
  message: string;
  backtrace?: string;
  userEmail?: string;
  path?: string;
  buildId?: string;
}

/** One group of identical errors: the same fingerprint is counted, not stored again. */
export class ErrorReport {
  id!: number;
  fingerprint!: string;
  errorType!: ErrorType;
  originType!: number;
  message!: string;
  backtrace?: string;
  userEmail?: string;
  path?: string;
  buildId?: string;
  count!: number;
  firstSeenAt!: Date;
  lastSeenAt!: Date;
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Strips control characters (log injection) and trims; keeps newlines in backtraces. */
export function cleanText(value: string | null | undefined): string | undefined {
  const cleaned = value?.replace(CONTROL_CHARS, '').trim();
  return cleaned ? cleaned : undefined;
}

/**
 * Groups occurrences that are the same bug: same type, same message once numbers and ids are
 * blurred, same top stack frame. Emails and paths stay out so one bug is one group.
 */
export function fingerprintOf(o: Pick<ErrorOccurrence, 'errorType' | 'message' | 'backtrace'>): string {
  const blur = (s: string) => s.replace(/[0-9a-f]{8,}/gi, '#').replace(/\d+/g, '#');
  const topFrame = (o.backtrace ?? '').split('\n').find((line) => line.trim().startsWith('at ')) ?? '';
  return createHash('sha256')
    .update(`${o.errorType}\n${blur(o.message)}\n${blur(topFrame.replace(/\?[^):]*/, ''))}`)
    .digest('hex');
}
