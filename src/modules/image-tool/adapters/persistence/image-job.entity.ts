import { defineEntity, p } from '@mikro-orm/core';
import { ImageJob } from '../../domain/image-job';

/**
 * The image jobs' table, declared to MikroORM (its schema is the migration's: see skipTables in
 * mikro-orm.options.ts). Reads and writes go through PostgresImageJobRepository in plain SQL.
 */
export const ImageJobSchema = defineEntity({
  class: ImageJob,
  tableName: 'image_jobs',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid(),
    conversion: p.string().length(20),
    source: p.string().length(10),
    sourceUrl: p.string().length(2048).nullable(),
    status: p.string().length(10),
    errorCode: p.string().length(60).nullable(),
    errorMessage: p.string().length(300).nullable(),
    inputWidth: p.integer().nullable(),
    inputHeight: p.integer().nullable(),
    resultWidth: p.integer().nullable(),
    resultHeight: p.integer().nullable(),
    shrunk: p.boolean().default(false),
    options: p.json<ImageJob['options']>(),
    inputSha256: p.string().length(64).nullable(),
    resultFormat: p.string().length(5).nullable(),
    progressDone: p.integer().nullable(),
    progressTotal: p.integer().nullable(),
    notes: p.json<ImageJob['notes']>(),
    repeatOf: p.uuid().nullable(),
    repeatConvertedAt: p.datetime().nullable(),
    attempts: p.integer().default(0),
    createdAt: p.datetime().defaultRaw('now()'),
    startedAt: p.datetime().nullable(),
    finishedAt: p.datetime().nullable(),
    filesDeletedAt: p.datetime().nullable(),
  },
});
