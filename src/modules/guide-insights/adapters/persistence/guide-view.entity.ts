import { defineEntity, p } from '@mikro-orm/core';

/** Guide page views per level per UTC day, added to by every web process (read and written with SQL). */
export const GuideViewSchema = defineEntity({
  name: 'GuideView',
  tableName: 'guide_views',
  properties: {
    levelNumber: p.integer().primary().autoincrement(false),
    day: p.string().columnType('date').primary(),
    views: p.integer(),
  },
});
