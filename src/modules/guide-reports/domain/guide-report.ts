import { GUIDE_REPORT_KINDS, GUIDE_REPORT_MESSAGE_MAX, type GuideReportKind } from 'src/contracts/guide-reports';
import { InvalidGuideReportError } from './guide-reports.errors';

/** Reports are kept this long, then deleted by the module's housekeeping. */
export const REPORT_RETENTION_DAYS = 180;

/** A player's report of a problem with one level's guide. Anonymous: no account, no address. */
export class GuideReport {
  id!: string;
  levelNumber!: number;
  kind!: GuideReportKind;
  message?: string;
  createdAt!: Date;
  /** When the admins were mailed about it; unset while not yet (or when nobody is to be mailed). */
  notifiedAt?: Date;
  /** When an admin marked it handled (the first time: marking again changes nothing); unset while open. */
  handledAt?: Date;
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/**
 * A new report, its rules applied: a known kind, the message without control characters (they
 * could forge lines in a mail or a log), trimmed, blank meaning none, at most 1000 characters.
 */
export function newGuideReport(input: { id: string; levelNumber: number; kind: string; message?: string }, now: Date): GuideReport {
  if (!(GUIDE_REPORT_KINDS as readonly string[]).includes(input.kind)) throw new InvalidGuideReportError(`kind is one of ${GUIDE_REPORT_KINDS.join(', ')}`);
  const message = input.message?.replace(CONTROL_CHARS, '').trim();
  if (message && message.length > GUIDE_REPORT_MESSAGE_MAX) throw new InvalidGuideReportError(`message: at most ${GUIDE_REPORT_MESSAGE_MAX} characters`);
  return Object.assign(new GuideReport(), {
    id: input.id,
    levelNumber: input.levelNumber,
    kind: input.kind as GuideReportKind,
    ...(message ? { message } : {}),
    createdAt: now,
  });
}

/** Reports created before this moment are past their retention. */
export const retentionCutoff = (now: Date): Date => new Date(now.getTime() - REPORT_RETENTION_DAYS * 24 * 60 * 60 * 1000);
