import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { LadderStops } from 'src/contracts/guide-insights';
import { HELPFUL_SHARE_MIN_VOTES, type Difficulty } from 'src/contracts/levels';
import { GuideInsightsReader, type GuideInsightRecord } from '../../domain/guide-insights-reader.port';
import type { GuideMeasure, OrderTerm } from '../../domain/guide-order';

/** The column of each measure in the query below: ORDER BY is built from this map only, never from input. */
const COLUMN: Record<GuideMeasure, string> = {
  level: 'level',
  openReports: 'open_reports',
  helpfulRatio: 'helpful_ratio',
  votes: 'votes',
  viewsRecent: 'views_recent',
  viewsTotal: 'views_total',
  stuck: 'stuck',
  solved: 'solved',
};

interface Row {
  level: number;
  title: string;
  difficulty: Difficulty;
  views_recent: string;
  views_total: string;
  votes: number;
  helpful_votes: number;
  helpful_ratio: number | null;
  unclear_step: number;
  different_version: number;
  wrong: number;
  no_reason: number;
  open_reports: number;
  solved: number;
  stuck: number;
  total: string;
}

/**
 * A reporting read model: one aggregate query over the tables of the modules whose data it reports
 * (levels, guide_feedback, guide_views, guide_reports, progress_marks, ladder_stops), sorted and paged in
 * PostgreSQL so thousands of guides cost one page of rows. It writes none of them.
 */
@Injectable()
export class MikroOrmGuideInsightsReader extends GuideInsightsReader {
  constructor(private readonly em: EntityManager) {
    super();
  }

  async page(order: readonly OrderTerm[], recentSince: string, limit: number, offset: number) {
    const orderBy = order.map(({ measure, dir }) => `${COLUMN[measure]} ${dir === 'asc' ? 'asc' : 'desc'} nulls last`).join(', ');
    const em = this.em.fork();
    const rows = await em.execute<Row[]>(
      `with feedback as (
         select level_number, count(*)::int as votes, (count(*) filter (where helpful))::int as helpful_votes,
           (count(*) filter (where not helpful and reason = 'unclear_step'))::int as unclear_step,
           (count(*) filter (where not helpful and reason = 'different_version'))::int as different_version,
           (count(*) filter (where not helpful and reason = 'wrong'))::int as wrong,
           (count(*) filter (where not helpful and reason is null))::int as no_reason
         from guide_feedback group by level_number
       ), views as (
         select level_number, coalesce(sum(views) filter (where day >= ?::date), 0) as recent, sum(views) as total
         from guide_views group by level_number
       ), reports as (
         select level_number, count(*)::int as open from guide_reports where handled_at is null group by level_number
       ), marks as (
         select level_number, (count(*) filter (where state = 'solved'))::int as solved, (count(*) filter (where state = 'stuck'))::int as stuck
         from progress_marks group by level_number
       ), guides as (
         select l.number as level, l.title, l.difficulty,
           coalesce(views.recent, 0) as views_recent, coalesce(views.total, 0) as views_total,
           coalesce(feedback.votes, 0) as votes, coalesce(feedback.helpful_votes, 0) as helpful_votes,
           case when feedback.votes >= ? then feedback.helpful_votes::float8 / feedback.votes end as helpful_ratio,
           coalesce(feedback.unclear_step, 0) as unclear_step, coalesce(feedback.different_version, 0) as different_version,
           coalesce(feedback.wrong, 0) as wrong, coalesce(feedback.no_reason, 0) as no_reason,
           coalesce(reports.open, 0) as open_reports, coalesce(marks.solved, 0) as solved, coalesce(marks.stuck, 0) as stuck
         from levels l
         left join feedback on feedback.level_number = l.number
         left join views on views.level_number = l.number
         left join reports on reports.level_number = l.number
         left join marks on marks.level_number = l.number
         where l.published
       )
       select *, count(*) over () as total from guides order by ${orderBy} limit ? offset ?`,
      [recentSince, HELPFUL_SHARE_MIN_VOTES, limit, offset],
    );
    // Past the last page no row carries the total: count the guides alone.
    const total = rows.length
      ? Number(rows[0]!.total)
      : Number((await em.execute<{ n: string }[]>('select count(*) as n from levels where published'))[0]?.n ?? 0);
    return { rows: rows.map(toRecord), total };
  }

  async ladderStops(levels: number[]): Promise<Map<number, LadderStops[]>> {
    const byLevel = new Map<number, LadderStops[]>();
    if (!levels.length) return byLevel;
    const em = this.em.fork();
    // Every ladder of each guide (its puzzles, or its one ladder), then the taps on each, by rung.
    const rows = await em.execute<{ level: number; ladder: string; question: string | null; hints: number; revealed: number | null; solved: number; stuck: number }[]>(
      `with ladders as (
         select l.number as level, p.value->>'id' as ladder, p.value->>'question' as question, jsonb_array_length(p.value->'hintsHtml') as hints, p.ordinality as ord
         from levels l cross join lateral jsonb_array_elements(l.puzzles) with ordinality p
         where l.puzzles is not null and l.number in (select jsonb_array_elements_text(?::jsonb)::int)
         union all
         select l.number, 'level', null, jsonb_array_length(l.hints), 1 from levels l
         where l.puzzles is null and l.number in (select jsonb_array_elements_text(?::jsonb)::int)
       ), rungs as (
         select level_number, ladder, revealed, (count(*) filter (where state = 'solved'))::int as solved, (count(*) filter (where state = 'stuck'))::int as stuck
         from ladder_stops where level_number in (select jsonb_array_elements_text(?::jsonb)::int) group by level_number, ladder, revealed
       )
       select ladders.level, ladders.ladder, ladders.question, ladders.hints, rungs.revealed, coalesce(rungs.solved, 0) as solved, coalesce(rungs.stuck, 0) as stuck
       from ladders left join rungs on rungs.level_number = ladders.level and rungs.ladder = ladders.ladder
       order by ladders.level, ladders.ord, rungs.revealed`,
      [JSON.stringify(levels), JSON.stringify(levels), JSON.stringify(levels)],
    );
    for (const row of rows) {
      const ladders = byLevel.get(row.level) ?? [];
      byLevel.set(row.level, ladders);
      let ladder = ladders.at(-1);
      if (ladder?.ladder !== row.ladder) ladders.push((ladder = { ladder: row.ladder, question: row.question, hints: Number(row.hints), rungs: [] }));
      if (row.revealed !== null) ladder.rungs.push({ revealed: row.revealed, solved: row.solved, stuck: row.stuck });
    }
    return byLevel;
  }
}

function toRecord(row: Row): GuideInsightRecord {
  return {
    level: row.level,
    title: row.title,
    difficulty: row.difficulty,
    viewsRecent: Number(row.views_recent),
    viewsTotal: Number(row.views_total),
    votes: row.votes,
    helpfulVotes: row.helpful_votes,
    helpfulRatio: row.helpful_ratio,
    notHelpfulReasons: { unclear_step: row.unclear_step, different_version: row.different_version, wrong: row.wrong, none: row.no_reason },
    openReports: row.open_reports,
    solved: row.solved,
    stuck: row.stuck,
  };
}
