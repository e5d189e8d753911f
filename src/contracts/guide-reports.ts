/** What a player may say is wrong with a level's guide ("Something wrong with this guide?"). */
export const GUIDE_REPORT_KINDS = ['wrong_step', 'video_mismatch', 'other'] as const;
export type GuideReportKind = (typeof GUIDE_REPORT_KINDS)[number];

/** The kinds a guide's report form offers: "the video does not match" only where the guide has a video. */
export const reportKindsFor = (guide: { has_video: boolean }): readonly GuideReportKind[] =>
  guide.has_video ? GUIDE_REPORT_KINDS : GUIDE_REPORT_KINDS.filter((kind) => kind !== 'video_mismatch');

/** The optional "what is wrong" text, in characters (UTF-16 code units, as the textarea counts). */
export const GUIDE_REPORT_MESSAGE_MAX = 1000;

/** Body of POST /api/v1/levels/{n}/reports. */
export interface GuideReportInput {
  kind: GuideReportKind;
  message?: string;
}

/** The answer to a report (201): the report's id, nothing else. */
export interface GuideReportReceipt {
  id: string;
}

/** Data of the report page /levels/{n}/report: which guide is being reported. */
export interface GuideReportPageData {
  number: number;
  title: string;
  /** Whether the guide has a video walkthrough (what the form offers to report depends on it). */
  has_video: boolean;
}

/** What an admin may list: open reports (not yet handled), handled ones, or all. */
export const GUIDE_REPORT_STATES = ['open', 'handled', 'all'] as const;
export type GuideReportState = (typeof GUIDE_REPORT_STATES)[number];

/** A report as the admins see it (/admin/guides, the admin API); dates are ISO strings. */
export interface GuideReportView {
  id: string;
  level_number: number;
  kind: GuideReportKind;
  message: string | null;
  created_at: string;
  /** When an admin marked it handled; null while it is open. */
  handled_at: string | null;
}

/** Guide reports' section of the page data (src/modules/guide-reports/adapters/pages/guide-reports.pages.ts). */
export interface GuideReportsPages {
  /** Which guide the report page is about; null when the level has no published guide. */
  page(number: number): Promise<GuideReportPageData | null>;
}

// Adds the section to PageData without editing page-data.ts (declaration merging): see PageData.
declare module './page-data' {
  interface PageData {
    readonly guideReports: GuideReportsPages;
  }
}
