import { z } from 'zod';
import {
  GUIDE_REPORT_KINDS,
  GUIDE_REPORT_MESSAGE_MAX,
  GUIDE_REPORT_STATES,
  type GuideReportInput,
  type GuideReportReceipt,
  type GuideReportState,
  type GuideReportView,
} from './guide-reports';

/** POST /api/v1/levels/{n}/reports: a kind, and what is wrong in at most 1000 characters (blank is none). */
export const guideReportInputSchema = z.strictObject({
  kind: z.enum(GUIDE_REPORT_KINDS, { error: `kind is one of ${GUIDE_REPORT_KINDS.join(', ')}` }),
  message: z
    .string()
    .trim()
    .max(GUIDE_REPORT_MESSAGE_MAX, `message: at most ${GUIDE_REPORT_MESSAGE_MAX} characters`)
    .optional()
    .transform((v) => (v ? v : undefined)),
}) satisfies z.ZodType<GuideReportInput, unknown>;

export const guideReportReceiptSchema = z.object({ id: z.uuid().describe("The report's id") }) satisfies z.ZodType<GuideReportReceipt>;

/** A report's id in an admin path: a UUID, or the request names no report (400). */
export const guideReportIdSchema = z.uuid({ error: 'Not a report id' });

export const guideReportViewSchema = z.object({
  id: z.uuid(),
  level_number: z.number().int(),
  kind: z.enum(GUIDE_REPORT_KINDS),
  message: z.string().nullable(),
  created_at: z.string().describe('ISO 8601'),
  handled_at: z.string().nullable().describe('ISO 8601; null while the report is open'),
}) satisfies z.ZodType<GuideReportView>;

/** GET /api/v1/admin/guide_reports: one level's reports or every level's, open by default, 50 a page. */
export const guideReportListQuerySchema = z.strictObject({
  level: z.coerce.number().int().min(1).max(10_000_000).optional(),
  state: z.enum(GUIDE_REPORT_STATES).default('open'),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
}) satisfies z.ZodType<{ level?: number; state: GuideReportState; page: number }, unknown>;

export const guideReportPageSchema = z.object({
  items: z.array(guideReportViewSchema).describe('Newest first'),
  total: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
});
