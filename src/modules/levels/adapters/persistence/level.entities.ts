import { defineEntity, p } from '@mikro-orm/core';
import { Level } from '../../domain/level';

const SEARCH_VECTOR = `(setweight(to_tsvector('english', "title"), 'A') || setweight(to_tsvector('english', "search_text"), 'B')) stored`;

export const LevelSchema = defineEntity({
  class: Level,
  tableName: 'levels',
  indexes: [
    { name: 'levels_published_difficulty_index', properties: ['published', 'difficulty', 'number'] },
    { name: 'levels_search_index', expression: 'create index "levels_search_index" on "levels" using gin ("search")' },
  ],
  checks: [{ name: 'levels_difficulty_check', expression: `difficulty in ('easy', 'medium', 'hard')` }],
  properties: {
    number: p.integer().primary().autoincrement(false),
    title: p.string().length(120),
    difficulty: p.string().length(8),
    referenceSeconds: p.integer(),
    unlocksAt: p.integer().nullable(),
    introHtml: p.text(),
    tips: p.json<string[]>(),
    hints: p.json<string[]>(),
    steps: p.json<Level['steps']>(),
    puzzles: p.json<NonNullable<Level['puzzles']>>().nullable(),
    video: p.json<NonNullable<Level['video']>>().nullable(),
    gameVersion: p.string().length(32),
    verifiedOn: p.string().columnType('date'),
    searchText: p.text(),
    sourceHash: p.string().length(64),
    published: p.boolean().default(true),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    // Full-text search vector, computed by PostgreSQL; queried with raw SQL, never loaded.
    search: p
      .type('unknown')
      .columnType('tsvector')
      .generated(SEARCH_VECTOR)
      .nullable()
      .lazy()
      .hidden()
      .ignoreSchemaChanges('type', 'extra'),
  },
});

/** "Request this guide": one row per browser per level. */
export const GuideRequestSchema = defineEntity({
  name: 'GuideRequest',
  tableName: 'guide_requests',
  properties: {
    levelNumber: p.integer().primary().autoincrement(false),
    voterHash: p.string().length(64).primary(),
    createdAt: p.datetime(),
  },
});

/** "Was this helpful?": one answer per browser per level. */
export const GuideFeedbackSchema = defineEntity({
  name: 'GuideFeedback',
  tableName: 'guide_feedback',
  properties: {
    levelNumber: p.integer().primary().autoincrement(false),
    voterHash: p.string().length(64).primary(),
    helpful: p.boolean(),
    reason: p.string().length(32).nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

/** A step picture's responsive copy (written by the import, served at /guide-images/{file}); queried with SQL. */
export const GuidePictureSchema = defineEntity({
  name: 'GuidePicture',
  tableName: 'guide_pictures',
  indexes: [{ name: 'guide_pictures_hash_index', properties: ['hash'] }],
  properties: {
    file: p.string().length(40).primary(),
    hash: p.string().length(16),
    contentType: p.string().length(16),
    bytes: p.blob(),
    createdAt: p.datetime(),
  },
});
