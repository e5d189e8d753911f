import { z } from 'zod';
import { DIFFICULTIES, EXTRA_KINDS } from 'src/contracts/levels';

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

/** Bounds of the guide format (docs/extending.md#guide-files). */
export const GUIDE_LIMITS = { hints: 8, steps: 30, puzzles: 12, marks: 4 } as const;

const plainLine = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);

/** A spot to tap on a step's picture: centre and radius in percent of the picture. */
const markSchema = z.strictObject({
  x: z.number().min(0, 'must be 0 to 100 (percent of the width)').max(100, 'must be 0 to 100 (percent of the width)'),
  y: z.number().min(0, 'must be 0 to 100 (percent of the height)').max(100, 'must be 0 to 100 (percent of the height)'),
  r: z.number().min(1, 'must be 1 to 25 (percent of the width)').max(25, 'must be 1 to 25 (percent of the width)').default(6),
  label: plainLine(40),
});

const stepSchema = z
  .strictObject({
    text: markdownLine(1000),
    at: duration.optional(),
    /** A PNG or JPEG beside the guide, relative to content/levels/ ("images/027-globe.png"); no dots but the extension's, so never outside. */
    image: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)*\.(png|jpe?g)$/, 'must be a .png or .jpg path beside the guide, like images/027-globe.png')
      .optional(),
    alt: plainLine(200).optional(),
    marks: z.array(markSchema).max(GUIDE_LIMITS.marks, `at most ${GUIDE_LIMITS.marks} marks a picture`).optional(),
  })
  .superRefine((step, ctx) => {
    if (step.image && !step.alt) ctx.addIssue({ code: 'custom', path: ['alt'], message: 'a picture needs alt text: what it shows, for people who cannot see it' });
    if (!step.image && step.alt) ctx.addIssue({ code: 'custom', path: ['alt'], message: 'is alt text for a picture, but the step has no image' });
    if (!step.image && step.marks?.length) ctx.addIssue({ code: 'custom', path: ['marks'], message: 'marks are drawn on a picture, but the step has no image' });
  });

const hintsSchema = z.array(markdownLine(500)).min(1, 'needs at least one hint').max(GUIDE_LIMITS.hints, `at most ${GUIDE_LIMITS.hints} hints, least to most revealing`);
const stepsSchema = z.array(stepSchema).min(1, 'needs at least one step').max(GUIDE_LIMITS.steps);

/** A sub-puzzle: the player's question, the object it is about, its own ladder and steps. */
const puzzleSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be a short slug like dome-code (lower case, digits, dashes)').max(40),
  question: plainLine(140),
  object: plainLine(60).optional(),
  extra: z.enum(EXTRA_KINDS).optional(),
  hints: hintsSchema,
  steps: stepsSchema,
});

/** Front matter of content/levels/NNN.md: one ladder (`hints` and `steps`) or `puzzles`, each with its own. */
export const levelFileSchema = z
  .strictObject({
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
    hints: hintsSchema.optional(),
    steps: stepsSchema.optional(),
    puzzles: z.array(puzzleSchema).min(1, 'needs at least one puzzle').max(GUIDE_LIMITS.puzzles).optional(),
  })
  .superRefine((f, ctx) => {
    if (f.puzzles) {
      for (const key of ['hints', 'steps'] as const) {
        if (f[key]) ctx.addIssue({ code: 'custom', path: [key], message: `goes inside each puzzle when the guide has puzzles` });
      }
      const ids = new Set<string>();
      f.puzzles.forEach((puzzle, i) => {
        if (ids.has(puzzle.id)) ctx.addIssue({ code: 'custom', path: ['puzzles', i, 'id'], message: `${puzzle.id} is used by an earlier puzzle` });
        ids.add(puzzle.id);
      });
      if (f.puzzles.every((puzzle) => puzzle.extra)) ctx.addIssue({ code: 'custom', path: ['puzzles'], message: 'needs at least one puzzle of the main escape (not an extra)' });
      const steps = f.puzzles.reduce((n, puzzle) => n + puzzle.steps.length, 0);
      if (steps > GUIDE_LIMITS.steps) ctx.addIssue({ code: 'custom', path: ['puzzles'], message: `has ${steps} steps in all: at most ${GUIDE_LIMITS.steps}` });
    } else {
      if (!f.hints) ctx.addIssue({ code: 'custom', path: ['hints'], message: 'needs at least one hint (or puzzles, each with its hints)' });
      if (!f.steps) ctx.addIssue({ code: 'custom', path: ['steps'], message: 'needs at least one step (or puzzles, each with its steps)' });
    }
  });

export type LevelFile = z.output<typeof levelFileSchema>;
