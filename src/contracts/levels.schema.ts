import { z } from 'zod';
import { searchText } from './search-text';
import { DIFFICULTIES, FEEDBACK_REASONS, type GuideFeedback, type LevelListQuery } from './levels';

/** Query string of /levels and GET /api/v1/levels. Filters live in the URL so results can be shared. */
export const levelListQuerySchema = z.strictObject({
  difficulty: z.enum(DIFFICULTIES).optional(),
  query: z
    .string()
    .trim()
    .max(100)
    .optional()
    .transform(searchText),
  page: z.coerce.number().int().min(1).max(1000).default(1),
}) satisfies z.ZodType<LevelListQuery, unknown>;

export const guideFeedbackSchema = z.strictObject({
  helpful: z.boolean(),
  reason: z.enum(FEEDBACK_REASONS).optional(),
}) satisfies z.ZodType<GuideFeedback, unknown>;
