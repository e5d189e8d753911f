import { z } from 'zod';
import { GUIDE_SORTS, SORT_DIRECTIONS, type GuideInsightsData, type GuideSort, type SortDirection } from './guide-insights';
import { guideReportViewSchema } from './guide-reports.schema';
import { DIFFICULTIES } from './levels';

/** GET /api/v1/admin/guides: the sort (default `worst`), its direction (default: the sort's own) and the page. */
export const guideInsightsQuerySchema = z.strictObject({
  sort: z.enum(GUIDE_SORTS).default('worst'),
  dir: z.enum(SORT_DIRECTIONS).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
}) satisfies z.ZodType<{ sort: GuideSort; dir?: SortDirection; page: number }, unknown>;

const count = z.number().int();

export const guideInsightsSchema = z.object({
  query: z.object({ sort: z.enum(GUIDE_SORTS), dir: z.enum(SORT_DIRECTIONS), page: count }),
  guides: z.object({
    items: z.array(
      z.object({
        level: count,
        title: z.string(),
        difficulty: z.enum(DIFFICULTIES),
        views_recent: count.describe('Guide page views in the last `recent_days` days (UTC days, today included)'),
        views_total: count,
        votes: count.describe('"Was this helpful?" answers, one per browser'),
        helpful_votes: count,
        helpful_percent: count.nullable().describe('The share the guide page shows; null below `min_votes` answers'),
        not_helpful_reasons: z.object({ unclear_step: count, different_version: count, wrong: count, none: count }),
        open_reports: count,
        reports: z.array(guideReportViewSchema).describe('The newest open reports (10 at most)'),
        solved: count.describe('Browsers that marked the level solved'),
        stuck: count.describe('Browsers that marked the level still stuck'),
        stuck_at: z
          .object({ ladder: z.string(), question: z.string().nullable(), revealed: count, players: count })
          .nullable()
          .describe('The rung (hints revealed) where most players still tapped "Still stuck"; null before any'),
        ladders: z
          .array(
            z.object({
              ladder: z.string().describe('A puzzle id, or "level" for a guide without puzzles'),
              question: z.string().nullable(),
              hints: count,
              rungs: z.array(z.object({ revealed: count, solved: count, stuck: count })),
            }),
          )
          .describe('Where players stopped on each ladder: per rung, browsers that tapped solved or stuck'),
      }),
    ),
    total: count,
    page: count,
    pages: count,
  }),
  wanted: z
    .array(z.object({ level: count, requests: count, last_requested_at: z.string() }))
    .describe('The most requested levels without a guide, as npm run content:wanted lists them'),
  recent_days: count,
  min_votes: count,
}) satisfies z.ZodType<GuideInsightsData>;
