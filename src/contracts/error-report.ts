import { z } from 'zod';

/** What a browser may report: SERVER_ERROR is the server's own, kept apart with a bound of its own. */
export const CLIENT_ERROR_TYPES = ['API_ERROR', 'CLIENT_ERROR', 'NUXT_APP_ERROR'] as const;
/** Error types from the spec; existing dashboards match on these exact values. */
export const ERROR_TYPES = [...CLIENT_ERROR_TYPES, 'SERVER_ERROR'] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

export const ERROR_REPORT_LIMITS = {
  message: 2_000,
  backtrace: 8_000,
  email: 256,
  path: 2_048,
  buildId: 64,
} as const;

/** Body of POST /api/v1/log_client_error. Unknown keys are refused, so nothing nests deeper than this. */
export const clientErrorReportSchema = z.strictObject({
  error: z.strictObject({
    error_type: z.enum(CLIENT_ERROR_TYPES),
    origin_type: z.number().int().min(0).max(9),
    message: z.string().max(ERROR_REPORT_LIMITS.message),
    backtrace: z.string().max(ERROR_REPORT_LIMITS.backtrace).nullish(),
    user_email: z.string().max(ERROR_REPORT_LIMITS.email).nullish(),
    path: z.string().max(ERROR_REPORT_LIMITS.path).nullish(),
    build_id: z.string().max(ERROR_REPORT_LIMITS.buildId).nullish(),
  }),
});

export type ClientErrorReport = z.infer<typeof clientErrorReportSchema>;
