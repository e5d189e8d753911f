import { defineEntity, p } from '@mikro-orm/core';

/** The hash of the content last imported, per kind of content ('levels', 'site'). */
export const ContentImportSchema = defineEntity({
  name: 'ContentImport',
  tableName: 'content_imports',
  properties: {
    kind: p.string().length(32).primary(),
    contentHash: p.string().length(64),
    importedAt: p.datetime(),
    /** Small imported lists that need no table of their own (the media coverage list). */
    data: p.json<unknown>().nullable(),
  },
});
