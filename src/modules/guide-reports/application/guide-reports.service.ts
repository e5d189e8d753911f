import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { playableVideo } from 'src/contracts/levels';
import type { GuideReportInput, GuideReportKind, GuideReportPageData, GuideReportState, GuideReportView } from 'src/contracts/guide-reports';
import { LevelsService } from 'src/modules/levels';
import type { MailMessage } from 'src/platform/mail/mail-message';
import { MailOutbox } from 'src/platform/mail/mail-outbox.port';
import { escapeMarkup } from 'src/platform/markup/escape-markup';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import { QueueUnavailableError } from 'src/platform/queue/queue.errors';
import { newGuideReport, retentionCutoff, type GuideReport } from '../domain/guide-report';
import { GuideReportRepository } from '../domain/guide-report-repository.port';
import { GuideReportNotFoundError, NoGuideToReportError } from '../domain/guide-reports.errors';
import { toGuideReportView } from './guide-report-view';

/** Reports an admin lists per page. */
export const REPORTS_PAGE_SIZE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const KIND_LABELS: Record<GuideReportKind, string> = {
  wrong_step: 'A step is wrong',
  video_mismatch: 'The video does not match',
  other: 'Something else',
};

/** The notification job's id: queueing the same report twice while its job exists is a no-op. */
export const notifyJobId = (reportId: string) => `guide-report-${reportId}`;

/**
 * "Something wrong with this guide?": players report a problem with a published guide; the admins
 * (ADMIN_EMAILS) get a mail through a background job; reports are deleted after 180 days.
 */
@Injectable()
export class GuideReportsService {
  private readonly logger = new Logger('GuideReports');

  constructor(
    private readonly reports: GuideReportRepository,
    private readonly levels: LevelsService,
    private readonly jobs: JobQueue,
    private readonly outbox: MailOutbox,
    private readonly config: AppConfig,
  ) {}

  /** What the report page shows; null when the level has no published guide. */
  async pageData(number: number): Promise<GuideReportPageData | null> {
    const level = await this.levels.level(number);
    return level ? { number: level.number, title: level.title, has_video: playableVideo(level.video) !== undefined } : null;
  }

  /** Stores the report, then queues the admins' notification (by id: the text stays in PostgreSQL). */
  async report(levelNumber: number, input: GuideReportInput, now = new Date()): Promise<GuideReport> {
    if (!(await this.levels.level(levelNumber))) throw new NoGuideToReportError(levelNumber);
    const report = newGuideReport({ id: randomUUID(), levelNumber, ...input }, now);
    await this.reports.add(report);
    try {
      await this.jobs.enqueue('guide-report.notify', { reportId: report.id }, { jobId: notifyJobId(report.id) });
    } catch (error) {
      // The player's report is kept either way; only the admins' mail about it is lost.
      if (!(error instanceof QueueUnavailableError)) throw error;
      this.logger.warn(`Report ${report.id} is stored, but its notification could not be queued (the queue is unavailable)`);
    }
    return report;
  }

  /**
   * The 'guide-report.notify' job: mails the admins what is due (see mailDue). Its report is in
   * that mail, or in the digest once the quiet spell has passed (60 reports once made 65 mails in 2 s).
   */
  async notifyAdmins(_reportId: string, now = new Date()): Promise<number> {
    return this.mailDue(now);
  }

  /**
   * At most one mail per admin per GUIDE_REPORT_DIGEST_MINUTES: when none went out in that time,
   * every report not yet notified goes in one mail per admin (the report itself when it is alone, a
   * digest otherwise). Run by each report's job and every minute where jobs run. Returns the mails.
   */
  async mailDue(now = new Date()): Promise<number> {
    const admins = [...this.config.auth.adminEmails];
    if (!admins.length) return 0;
    const due = await this.reports.claimDue(now, this.config.guideReportDigestMs);
    if (!due.length) return 0;
    const titles = new Map<number, string | undefined>();
    for (const number of new Set(due.map((r) => r.levelNumber))) titles.set(number, (await this.levels.level(number))?.title);
    // The outbox keeps each message even while the queue is down (its sweeper queues it later).
    for (const to of admins) {
      await this.outbox.send(due.length === 1 ? reportEmail(due[0]!, titles.get(due[0]!.levelNumber), to, this.config) : digestEmail(due, titles, to, this.config));
    }
    return admins.length;
  }

  /**
   * An admin marks a report handled: open reports are the admins' to-do list (/admin/guides). A
   * repeat (a double click, a retried request, two admins at once) keeps the first time.
   */
  async markHandled(id: string, now = new Date()): Promise<GuideReportView> {
    // Not a UUID: no report has it (PostgreSQL would refuse it as a uuid value).
    const report = UUID.test(id) ? await this.reports.markHandled(id, now) : null;
    if (!report) throw new GuideReportNotFoundError();
    if (report.handledAt?.getTime() === now.getTime()) this.logger.log(`Report ${id} (level ${report.levelNumber}) marked handled`);
    return toGuideReportView(report);
  }

  /** The admin API's list: one level's reports or all, open by default, newest first. */
  async list(filter: { level?: number; state: GuideReportState }, page: number) {
    const { reports, total } = await this.reports.list(filter, REPORTS_PAGE_SIZE, (page - 1) * REPORTS_PAGE_SIZE);
    return { items: reports.map(toGuideReportView), total, page, pages: Math.max(1, Math.ceil(total / REPORTS_PAGE_SIZE)) };
  }

  /** The newest open reports of these levels, at most `perLevel` each, by level. */
  async newestOpen(levels: readonly number[], perLevel: number): Promise<Map<number, GuideReportView[]>> {
    const byLevel = new Map<number, GuideReportView[]>();
    for (const report of await this.reports.newestOpen(levels, perLevel)) {
      byLevel.set(report.levelNumber, [...(byLevel.get(report.levelNumber) ?? []), toGuideReportView(report)]);
    }
    return byLevel;
  }

  /** The retention rule: reports older than 180 days go. Returns how many were deleted. */
  deleteExpired(now = new Date()): Promise<number> {
    return this.reports.deleteCreatedBefore(retentionCutoff(now));
  }
}

/** What a mail says of one report: the kind, the player's words, a link to the guide. */
function reportLines(report: GuideReport, title: string | undefined, config: AppConfig): string[] {
  const url = `${config.http.publicUrl}/levels/${report.levelNumber}`;
  const heading = `Level ${report.levelNumber}${title ? `: ${title}` : ''}`;
  return [
    `A player reported a problem with the guide of ${heading}.`,
    `What is wrong: ${KIND_LABELS[report.kind]}`,
    report.message ? `Their words:\n${report.message}` : 'They left no message.',
    `The guide: ${url}`,
    `Reported at ${report.createdAt.toISOString()} (report ${report.id}).`,
  ];
}

/** Lines as a mail: text, and HTML with every line escaped. */
function adminMail(to: string, subject: string, sections: string[][], config: AppConfig): MailMessage {
  const site = config.public.siteName;
  const paragraph = (text: string) => `<p style="white-space:pre-wrap">${escapeMarkup(text)}</p>`;
  return {
    to,
    subject,
    text: [...sections.map((lines) => lines.join('\n\n')), `— ${site}`].join('\n\n'),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111827">${sections
      .map((lines) => lines.map(paragraph).join(''))
      .join('<hr>')}<p style="color:#6b7280">— ${escapeMarkup(site)}</p></body></html>`,
  };
}

/** The admin's mail of one report: the kind, the player's words (escaped in the HTML part) and a link to the guide. */
export function reportEmail(report: GuideReport, title: string | undefined, to: string, config: AppConfig): MailMessage {
  return adminMail(to, `Guide problem reported: level ${report.levelNumber} (${KIND_LABELS[report.kind].toLowerCase()})`, [reportLines(report, title, config)], config);
}

/** Several reports in one mail per admin (the digest), oldest first. */
export function digestEmail(reports: GuideReport[], titles: Map<number, string | undefined>, to: string, config: AppConfig): MailMessage {
  const levels = [...new Set(reports.map((r) => r.levelNumber))];
  const intro = [`${reports.length} guide problems were reported (levels ${levels.join(', ')}).`];
  const subject = `Guide problems reported: ${reports.length} reports, ${levels.length} level${levels.length === 1 ? '' : 's'}`;
  return adminMail(to, subject, [intro, ...reports.map((report) => reportLines(report, titles.get(report.levelNumber), config))], config);
}
