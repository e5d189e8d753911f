import { z } from 'zod';
import { DIFFICULTIES } from 'src/contracts/levels';

/** "3:30" or "1:02:05" → seconds. */
const duration = z
  .string()
  .regex(/^(\d{1,2}:)?\d{1,2}:\d{2}$/, 'must be a duration like "3:30"')
  .transform((v) => v.split(':').reduce((total, part) => total * 60 + Number(part), 0));

/** YYYY-MM-DD, a real calendar date. */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-10-02 (YYYY-MM-DD)')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), {
    message: 'is not a real date',
  });

const markdownLine = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);

/** Front matter of content/levels/NNN.md. */
export const levelFileSchema = z.strictObject({
  level: z.number().int().min(1).max(100_000),
  title: z.string().trim().min(3).max(80),
  difficulty: z.enum(DIFFICULTIES),
  time: duration,
  unlocks_at: z.number().int().min(0).max(100_000).optional(),
  game_version: z.string().trim().min(1).max(32),
  verified: isoDate,
  video: z
    .strictObject({
      youtube_id: z.string().regex(/^[A-Za-z0-9_-]{11}$/, 'must be an 11-character YouTube id'),
      title: z.string().trim().min(1).max(120),
      duration,
      sample: z.boolean().default(false),
    })
    .optional(),
  tips: z.array(markdownLine(500)).max(10).default([]),
  hints: z.array(markdownLine(500)).min(1, 'needs at least one hint').max(8),
  steps: z
    .array(z.strictObject({ text: markdownLine(1000), at: duration.optional() }))
    .min(1, 'needs at least one step')
    .max(30),
});
