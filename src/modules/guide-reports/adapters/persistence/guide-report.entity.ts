import { defineEntity, p } from '@mikro-orm/core';
import { GuideReport } from '../../domain/guide-report';

export const GuideReportSchema = defineEntity({
  class: GuideReport,
  tableName: 'guide_reports',
  checks: [{ name: 'guide_reports_kind_check', expression: `kind in ('wrong_step', 'video_mismatch', 'other')` }],
  properties: {
    id: p.uuid().primary(),
    levelNumber: p.integer(),
    kind: p.string().length(16),
    message: p.string().length(1000).nullable(),
    // Indexed for the retention sweep.
    createdAt: p.datetime().index(),
    notifiedAt: p.datetime().nullable(),
    handledAt: p.datetime().nullable(),
  },
});
