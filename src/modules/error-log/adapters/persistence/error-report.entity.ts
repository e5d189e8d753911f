import { defineEntity, p } from '@mikro-orm/core';
import { ErrorReport } from '../../domain/error-report';

export const ErrorReportSchema = defineEntity({
  class: ErrorReport,
  tableName: 'error_reports',
  properties: {
    id: p.integer().primary().autoincrement(),
    fingerprint: p.string().length(64).unique(),
    errorType: p.string().length(32),
    originType: p.smallint(),
    message: p.text(),
    backtrace: p.text().nullable(),
    userEmail: p.string().length(256).nullable(),
    path: p.text().nullable(),
    buildId: p.string().length(64).nullable(),
    count: p.integer().default(1),
    firstSeenAt: p.datetime(),
    lastSeenAt: p.datetime().index(),
  },
});
