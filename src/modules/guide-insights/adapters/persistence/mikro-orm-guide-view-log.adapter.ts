import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import { GuideViewLog } from '../../domain/guide-view-log.port';
import type { GuideViewCount } from '../../domain/guide-view-tally';

/**
 * One statement per flush: the counts as one JSON parameter, added to the stored ones (an upsert
 * that adds, so processes flushing at once add up under the row lock), for published guides only.
 */
@Injectable()
export class MikroOrmGuideViewLog extends GuideViewLog {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async add(counts: readonly GuideViewCount[]): Promise<void> {
    if (!counts.length) return;
    await this.em.fork().execute(
      `insert into guide_views (level_number, day, views)
       select c.level, c.day::date, c.views from jsonb_to_recordset(?::jsonb) as c(level int, day text, views int)
       join levels on levels.number = c.level and levels.published
       order by c.level, c.day
       on conflict (level_number, day) do update set views = guide_views.views + excluded.views`,
      [JSON.stringify(counts)],
    );
  }
}
