import type { EntityManager, EntitySchema } from '@mikro-orm/core';

/** Rows imported from content files. */
export interface PublishedRow {
  sourceHash: string;
  published: boolean;
  updatedAt: Date;
}

export interface SyncSummary {
  created: number;
  updated: number;
  unchanged: number;
  unpublished: number;
}

/**
 * Makes the published rows of `entity` exactly `files`, inside the caller's transaction: new files
 * are inserted, changed (or unpublished) ones updated, unchanged ones left alone, and rows whose
 * file is gone unpublished (kept, no longer shown). `toRow` maps a file to the columns to write.
 */
export async function syncPublished<F extends { sourceHash: string }>(
  em: EntityManager,
  entity: EntitySchema,
  key: (item: F | PublishedRow) => string | number,
  files: F[],
  now: Date,
  toRow: (file: F, isNew: boolean) => Record<string, unknown> = (file) => ({ ...file }),
): Promise<SyncSummary> {
  const existing = new Map(((await em.find(entity as never, {})) as PublishedRow[]).map((row) => [key(row), row]));
  const summary: SyncSummary = { created: 0, updated: 0, unchanged: 0, unpublished: 0 };
  for (const file of files) {
    const current = existing.get(key(file));
    existing.delete(key(file));
    if (!current) {
      em.create(entity as never, { ...toRow(file, true), published: true, updatedAt: now } as never);
      summary.created++;
    } else if (current.sourceHash !== file.sourceHash || !current.published) {
      em.assign(current as never, { ...toRow(file, false), published: true, updatedAt: now } as never);
      summary.updated++;
    } else {
      summary.unchanged++;
    }
  }
  for (const row of existing.values()) {
    if (!row.published) continue;
    row.published = false;
    row.updatedAt = now;
    summary.unpublished++;
  }
  return summary;
}
