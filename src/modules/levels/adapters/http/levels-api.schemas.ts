import { z } from 'zod';
import { DIFFICULTIES, EXTRA_KINDS } from 'src/contracts/levels';

/**
 * Response shapes of the levels API. Responses are parsed through them (only listed fields leave
 * the server) and the OpenAPI document is generated from them, so docs and answers cannot drift.
 */
export const levelSummarySchema = z.object({
  number: z.number().int().describe('Level number'),
  title: z.string(),
  difficulty: z.enum(DIFFICULTIES),
  referenceSeconds: z.number().int().describe('Reference completion time in seconds'),
});

export const levelDetailSchema = levelSummarySchema.extend({
  unlocksAt: z.number().int().optional().describe('The level after which this one unlocks'),
  introHtml: z.string().describe('Sanitised HTML'),
  tipsHtml: z.array(z.string()).describe('Sanitised inline HTML'),
  hintsHtml: z.array(z.string()).describe("The level's one ladder, from least to most revealing; sanitised inline HTML. Empty when the guide has puzzles"),
  steps: z.array(
    z.object({
      html: z.string(),
      atSeconds: z.number().int().optional().describe('Moment of the video'),
      picture: z
        .object({
          src: z.string().describe('Base URL: each copy is `{src}-{width}.avif` and `.webp`'),
          widths: z.array(z.number().int()),
          width: z.number().int(),
          height: z.number().int(),
          alt: z.string(),
          marks: z.array(z.object({ x: z.number(), y: z.number(), r: z.number(), label: z.string() })).describe('Spots to tap, in percent of the picture'),
        })
        .optional(),
    }),
  ).describe('Every step; with puzzles, puzzle after puzzle'),
  puzzles: z
    .array(
      z.object({
        id: z.string(),
        question: z.string(),
        object: z.string().optional(),
        extra: z.enum(EXTRA_KINDS).optional().describe('An extra apart from the main escape'),
        hintsHtml: z.array(z.string()).describe('From least to most revealing'),
        firstStep: z.number().int().describe('Index of its first step in `steps`'),
        stepCount: z.number().int(),
      }),
    )
    .optional()
    .describe('The sub-puzzles, each with its own hint ladder and steps'),
  video: z
    .object({
      youtubeId: z.string(),
      title: z.string(),
      durationSeconds: z.number().int(),
      sample: z.boolean().describe('Placeholder of the sample content: no real video'),
    })
    .optional(),
  gameVersion: z.string(),
  verifiedOn: z.string().describe('YYYY-MM-DD'),
  updatedAt: z.string().describe('ISO 8601'),
  helpful: z
    .object({ percent: z.number().int().describe('Whole percent; 100 and 0 only when every answer agrees'), votes: z.number().int() })
    .optional()
    .describe('How many players found the guide helpful ("Was this helpful?", one answer per browser); only from 10 answers on'),
});

export const levelListSchema = z.object({
  query: z.object({ difficulty: z.enum(DIFFICULTIES).optional(), query: z.string().optional(), page: z.number().int() }),
  levels: z.array(levelSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageCount: z.number().int(),
  counts: z.object({ easy: z.number().int(), medium: z.number().int(), hard: z.number().int(), all: z.number().int() }),
});

export const guideRequestResultSchema = z.object({
  counted: z.boolean().describe('False when this browser had already asked'),
  requests: z.number().int().describe('How many browsers asked for this guide'),
});

export const errorSchema = z.object({ errors: z.array(z.string()), code: z.string() });
