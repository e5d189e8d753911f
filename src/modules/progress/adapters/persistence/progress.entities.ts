import { defineEntity, p } from '@mikro-orm/core';

/*
 * The progress tables (migrations/Migration20261126000000Progress.ts), queried with SQL by the
 * adapters. The account tables' foreign keys to users (on delete cascade) are stated only by the
 * migration, so migration:create skips those tables (mikro-orm.options.ts).
 */

export const ProgressMarkSchema = defineEntity({
  name: 'ProgressMark',
  tableName: 'progress_marks',
  checks: [{ name: 'progress_marks_state_check', expression: `state in ('solved', 'stuck')` }],
  properties: {
    levelNumber: p.integer().primary().autoincrement(false),
    voterHash: p.string().length(64).primary(),
    state: p.string().length(8),
    updatedAt: p.datetime(),
  },
});

export const AccountProgressSchema = defineEntity({
  name: 'AccountProgressEntry',
  tableName: 'account_progress',
  checks: [{ name: 'account_progress_state_check', expression: `state in ('solved', 'stuck', 'none')` }],
  properties: {
    userId: p.uuid().primary(),
    levelNumber: p.integer().primary().autoincrement(false),
    state: p.string().length(8),
    changedAt: p.datetime(),
    /** The account's revision that last changed it: what a browser's cursor is compared with. */
    revision: p.integer().default(0),
  },
});

export const AccountProgressResetSchema = defineEntity({
  name: 'AccountProgressReset',
  tableName: 'account_progress_resets',
  properties: {
    userId: p.uuid().primary(),
    clearedAt: p.datetime().nullable(),
    /** Raised by each sync that changes an entry. */
    revision: p.integer().default(0),
  },
});

/** Where players stop on a hint ladder: per browser (a hash) per guide per ladder, the hints revealed at its last tap. */
export const LadderStopSchema = defineEntity({
  name: 'LadderStop',
  tableName: 'ladder_stops',
  checks: [{ name: 'ladder_stops_state_check', expression: `state in ('solved', 'stuck')` }],
  properties: {
    levelNumber: p.integer().primary().autoincrement(false),
    ladder: p.string().length(40).primary(),
    voterHash: p.string().length(64).primary(),
    revealed: p.smallint(),
    state: p.string().length(8),
    updatedAt: p.datetime(),
  },
});

export const PROGRESS_ENTITIES = [ProgressMarkSchema, AccountProgressSchema, AccountProgressResetSchema, LadderStopSchema];
