import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from 'src/config/app-config';
import { playableVideo } from 'src/contracts/levels';
import type { GuideReportInput, GuideReportKind, GuideReportPageData, GuideReportState, GuideReportView } from 'src/contracts/guide-reports';
import { LevelsService } from 'src/modules/levels/application/levels.service';
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
   * The 'guide-report.notify' job: one mail per admin, then the report is marked notified. Nothing
   * to do without ADMIN_EMAILS, for a report already notified, or one deleted meanwhile.
   */
  async notifyAdmins(reportId: string, now = new Date()): Promise<number> {
    const admins = [...this.config.auth.adminEmails];
    if (!admins.length) return 0;
    const report = await this.reports.findById(reportId);
    if (!report || report.notifiedAt) return 0;
    const level = await this.levels.level(report.levelNumber);
    // The outbox keeps each message even while the queue is down (its sweeper queues it later).
    for (const to of admins) await this.outbox.send(reportEmail(report, level?.title, to, this.config));
    await this.reports.markNotified(report.id, now);
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

/** The admin's mail: the kind, the player's words (escaped in the HTML part) and a link to the guide. */
export function reportEmail(report: GuideReport, title: string | undefined, to: string, config: AppConfig): MailMessage {
  const site = config.public.siteName;
  const url = `${config.http.publicUrl}/levels/${report.levelNumber}`;
  const heading = `Level ${report.levelNumber}${title ? `: ${title}` : ''}`;
  const lines = [
    `A player reported a problem with the guide of ${heading}.`,
    `What is wrong: ${KIND_LABELS[report.kind]}`,
    report.message ? `Their words:\n${report.message}` : 'They left no message.',
    `The guide: ${url}`,
    `Reported at ${report.createdAt.toISOString()} (report ${report.id}).`,
  ];
  const paragraph = (text: string) => `<p style="white-space:pre-wrap">${escapeMarkup(text)}</p>`;
  return {
    to,
    subject: `Guide problem reported: level ${report.levelNumber} (${KIND_LABELS[report.kind].toLowerCase()})`,
    text: [...lines, `— ${site}`].join('\n\n'),
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111827">${lines.map(paragraph).join('')}<p style="color:#6b7280">— ${escapeMarkup(site)}</p></body></html>`,
  };
}
