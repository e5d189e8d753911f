import { z } from 'zod';
import { PROGRESS_MARKS } from './progress';
import { PROGRESS_SYNC_BATCH, type ProgressExport, type ProgressSyncInput, type ProgressSyncResult } from './progress-sync';

const STATES = [...PROGRESS_MARKS, 'none'] as const;
/** Ten years: older than any change this site can have seen. */
const MAX_AGE_MS = 10 * 365 * 24 * 3600 * 1000;

const progressItemSchema = z.strictObject({
  level: z.number().int().min(1).max(9_999_999).describe('Level number'),
  state: z.enum(STATES).describe("'none' is a mark taken back"),
  ago: z.number().int().min(0).max(MAX_AGE_MS).describe("Milliseconds between the change and the sender's now (ages, so clocks are never compared)"),
});

/** A cursor as the server writes them (a tag of the account, a revision): bounded, never free text. */
const cursorSchema = z.string().max(48).regex(/^[\w-]{1,32}\.\d{1,15}$/, 'Not a cursor this server gave');

export const progressSyncInputSchema = z.strictObject({
  levels: z
    .array(progressItemSchema)
    .max(PROGRESS_SYNC_BATCH)
    .refine((items) => new Set(items.map((item) => item.level)).size === items.length, 'Each level may appear once'),
  since: cursorSchema.optional().describe("The last answer's cursor: then `levels` holds only the changes since, and so does the answer. None: the full merge (a browser's first sync with this account)"),
}) satisfies z.ZodType<ProgressSyncInput, unknown>;

export const progressSyncResultSchema = z.object({
  levels: z.array(z.object({ level: z.number().int(), state: z.enum(STATES), ago: z.number().int() })),
  clearedAgo: z.number().int().nullable().describe('How long ago the player last cleared everything; null if never'),
  cursor: z.string().describe('Send it as `since` with the next sync'),
}) satisfies z.ZodType<ProgressSyncResult>;

export const progressExportSchema = z.object({
  exportedAt: z.string().describe('ISO 8601'),
  levels: z.array(z.object({ level: z.number().int(), state: z.enum(STATES), changedAt: z.string().describe('ISO 8601') })),
}) satisfies z.ZodType<ProgressExport>;

/** An anonymous tap on a guide: counted per browser, never tied to who. */
export const progressMarkInputSchema = z.strictObject({
  state: z.enum(STATES),
  ladders: z
    .record(z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'Ladder ids are puzzle ids (or "level")').max(40), z.number().int().min(0).max(8))
    .refine((ladders) => Object.keys(ladders).length <= 12, 'At most 12 ladders')
    .optional()
    .describe('How many hints of each ladder (a puzzle id, or "level" for a guide without puzzles) this browser revealed before the tap: where players stop'),
});
