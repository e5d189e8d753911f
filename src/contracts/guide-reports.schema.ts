import { z } from 'zod';
import { GUIDE_REPORT_KINDS, GUIDE_REPORT_MESSAGE_MAX, type GuideReportInput, type GuideReportReceipt } from './guide-reports';

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
