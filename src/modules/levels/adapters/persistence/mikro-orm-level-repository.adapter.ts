import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';
import type { Difficulty, LevelListQuery, LevelSummary, Walkthrough } from 'src/contracts/levels';
import type { RankedHits, SearchTerms } from 'src/contracts/search';
import { Level, type LevelGuide } from '../../domain/level';
import { LevelRepository, type ImportSummary, type LevelListPage, type LevelPage, type LevelPageRow } from '../../domain/level-repository.port';
import { ContentImportSchema } from 'src/platform/content/content-import.entity';
import { syncPublished } from 'src/platform/content/sync-published';
import { fullTextSql } from 'src/platform/search/full-text';
import { refreshSearchWords } from 'src/platform/search/search-words';
import { LevelSchema } from './level.entities';

interface SummaryRow {
  number: number;
  title: string;
  difficulty: Difficulty;
  reference_seconds: number;
}

interface LevelRow extends SummaryRow {
  unlocks_at: number | null;
  intro_html: string;
  tips: string[];
  hints: string[];
  steps: Level['steps'];
  puzzles: Level['puzzles'] | null;
  video: Level['video'] | null;
  game_version: string;
  verified_on: string;
  search_text: string;
  source_hash: string;
  published: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Maps a raw row to the domain class (the hot path skips the ORM's unit of work). */
function toLevel(row: LevelRow): Level {
  return Object.assign(new Level(), {
    number: row.number,
    title: row.title,
    difficulty: row.difficulty,
    referenceSeconds: row.reference_seconds,
    unlocksAt: row.unlocks_at ?? undefined,
    introHtml: row.intro_html,
    tips: row.tips,
    hints: row.hints,
    steps: row.steps,
    ...(row.puzzles ? { puzzles: row.puzzles } : {}),
    video: row.video ?? undefined,
    gameVersion: row.game_version,
    verifiedOn: row.verified_on,
    searchText: row.search_text,
    sourceHash: row.source_hash,
    published: row.published,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  });
}

const SUMMARY_COLUMNS = 'number, title, difficulty, reference_seconds';
/** The published guides' numbers as runs (gaps and islands: within a run, number minus its rank is the same). */
const PUBLISHED_RUNS = `select min(number) as first, max(number) as last
  from (select number, number - row_number() over (order by number) as run from levels where published) numbered
  group by run`;
const toSummary = (row: SummaryRow): LevelSummary => ({
  number: row.number,
  title: row.title,
  difficulty: row.difficulty,
  referenceSeconds: row.reference_seconds,
});

@Injectable()
export class MikroOrmLevelRepository extends LevelRepository {
  constructor(private readonly em: EntityManager) {
    super();
  }

  findPublished(number: number): Promise<Level | null> {
    return this.em.findOne(LevelSchema, { number, published: true });
  }

  async findPage(number: number): Promise<LevelPageRow> {
    const neighbour = (op: '<' | '>', order: 'desc' | 'asc') =>
      `(select json_build_object('number', number, 'title', title, 'difficulty', difficulty, 'reference_seconds', reference_seconds)
        from levels where published and number ${op} q.n order by number ${order} limit 1)`;
    // One statement: the guide, its neighbours and the helpfulness answers (guide_feedback, this module's own table).
    const [row] = await this.em.execute<(LevelRow & { prev: SummaryRow | null; next: SummaryRow | null; helpful: string; not_helpful: string })[]>(
      `select l.number, l.title, l.difficulty, l.reference_seconds, l.unlocks_at, l.intro_html, l.tips, l.hints, l.steps, l.puzzles,
              l.video, l.game_version, l.verified_on::text as verified_on, l.search_text, l.source_hash, l.published,
              l.created_at, l.updated_at, ${neighbour('<', 'desc')} as prev, ${neighbour('>', 'asc')} as next, f.helpful, f.not_helpful
       from (select ?::int as n) q
       left join levels l on l.number = q.n and l.published
       cross join lateral (select count(*) filter (where helpful) as helpful, count(*) filter (where not helpful) as not_helpful
                             from guide_feedback where level_number = q.n) f`,
      [number],
    );
    return {
      level: row?.number != null ? toLevel(row) : null,
      prev: row?.prev ? toSummary(row.prev) : undefined,
      next: row?.next ? toSummary(row.next) : undefined,
      feedback: { helpful: Number(row?.helpful ?? 0), notHelpful: Number(row?.not_helpful ?? 0) },
    };
  }

  async list(query: LevelListQuery, pageSize: number): Promise<LevelListPage> {
    // The text filters the counts too; the difficulty filters only the page and its total.
    const text = query.query ? ` and search @@ websearch_to_tsquery('english', ?)` : '';
    const rank = query.query ? `ts_rank(search, websearch_to_tsquery('english', ?))` : '0';
    const order = query.query ? 'rank desc, number' : 'number';
    const shown = query.difficulty ? 'where difficulty = ?' : '';
    const [row] = await this.em.execute<{ levels: SummaryRow[]; total: string; counts: Partial<Record<Difficulty, string>> }[]>(
      `with matching as (select ${SUMMARY_COLUMNS}, ${rank} as rank from levels where published${text}),
            shown as (select * from matching ${shown})
       select (select coalesce(json_agg(json_build_object('number', number, 'title', title, 'difficulty', difficulty,
                                                          'reference_seconds', reference_seconds) order by ${order}), '[]')
                 from (select * from shown order by ${order} limit ? offset ?) page) as levels,
              (select count(*) from shown) as total,
              (select coalesce(json_object_agg(difficulty, n), '{}') from (select difficulty, count(*) as n from matching group by difficulty) c) as counts`,
      [...(query.query ? [query.query, query.query] : []), ...(query.difficulty ? [query.difficulty] : []), pageSize, (query.page - 1) * pageSize],
    );
    const counts = { easy: 0, medium: 0, hard: 0, all: 0 };
    for (const [difficulty, n] of Object.entries(row?.counts ?? {}) as [Difficulty, string][]) {
      counts[difficulty] = Number(n);
      counts.all += Number(n);
    }
    return { levels: (row?.levels ?? []).map(toSummary), total: Number(row?.total ?? 0), counts };
  }

  async hardest(limit: number): Promise<LevelPage> {
    const rows = await this.em.execute<(SummaryRow & { total: string })[]>(
      `select ${SUMMARY_COLUMNS}, count(*) over () as total from levels where published and difficulty = 'hard'
       order by reference_seconds desc, number limit ?`,
      [limit],
    );
    return { levels: rows.map(toSummary), total: rows[0] ? Number(rows[0].total) : 0 };
  }

  async recentlyUpdated(limit: number) {
    const rows = await this.em.execute<{ number: number; title: string; updated_at: Date }[]>(
      'select number, title, updated_at from levels where published order by updated_at desc, number limit ?',
      [limit],
    );
    return rows.map((r) => ({ number: r.number, title: r.title, updatedAt: new Date(r.updated_at) }));
  }

  async sitemapEntries() {
    const rows = await this.em.execute<{ number: number; title: string; updated_at: Date; video: Walkthrough | null }[]>(
      'select number, title, updated_at, video from levels where published order by number',
    );
    return rows.map((r) => ({ number: r.number, title: r.title, updatedAt: new Date(r.updated_at), video: r.video ?? undefined }));
  }

  async publishedRuns(): Promise<[number, number][]> {
    const rows = await this.em.execute<{ first: number; last: number }[]>(`${PUBLISHED_RUNS} order by first`);
    return rows.map((row) => [Number(row.first), Number(row.last)]);
  }

  async featuredAndRuns(numbers: number[]): Promise<{ featured: LevelSummary[]; runs: [number, number][] }> {
    // One statement: the featured guides and the runs, each aggregated as JSON.
    const [row] = await this.em.execute<{ featured: SummaryRow[]; runs: [number, number][] }[]>(
      `select (select coalesce(json_agg(json_build_object('number', number, 'title', title, 'difficulty', difficulty,
                                                          'reference_seconds', reference_seconds) order by number), '[]')
                 from levels where published and number in (${numbers.map(() => '?').join(', ') || 'null'})) as featured,
              (select coalesce(json_agg(json_build_array(first, last) order by first), '[]') from (${PUBLISHED_RUNS}) runs) as runs`,
      numbers,
    );
    return { featured: (row?.featured ?? []).map(toSummary), runs: row?.runs ?? [] };
  }

  async featured(numbers: number[]): Promise<LevelSummary[]> {
    if (!numbers.length) return [];
    const rows = await this.em.execute<SummaryRow[]>(
      `select ${SUMMARY_COLUMNS} from levels where published and number in (${numbers.map(() => '?').join(', ')}) order by number`,
      numbers,
    );
    return rows.map(toSummary);
  }

  async search(terms: SearchTerms, limit: number): Promise<RankedHits<{ number: number; difficulty: Difficulty }>> {
    const ft = fullTextSql(terms);
    const number = terms.number ?? null;
    const rows = await this.em.execute<
      { number: number; difficulty: Difficulty; tier: number; rank: number; total: string; marked_title: string; snippet: string }[]
    >(
      `with ${ft.with},
       found as (
         select number, title, difficulty, search_text,
                case when number = ?::int then 3 else ${ft.tier('title', 'search')} end as tier, ${ft.rank('search')} as rank
         from levels, q where published and (${ft.matches('search')} or number = ?::int)
       ),
       best as (select *, count(*) over () as total from found order by tier desc, rank desc, number limit ?)
       select number, difficulty, tier, rank, total, ${ft.title('title')} as marked_title, ${ft.snippet('search_text')} as snippet
       from best, q order by tier desc, rank desc, number`,
      [...ft.params, number, number, limit],
    );
    return {
      total: rows[0] ? Number(rows[0].total) : 0,
      hits: rows.map((r) => ({ number: r.number, difficulty: r.difficulty, tier: r.tier, rank: r.rank, title: r.marked_title, snippet: r.snippet })),
    };
  }

  replaceAll(guides: LevelGuide[], contentHash: string, now: Date): Promise<ImportSummary> {
    return this.em.transactional(async (em) => {
      // Two processes starting together import one after the other, never interleaved.
      await em.execute(`select pg_advisory_xact_lock(hashtext('content-import:levels'))`);
      // Optional fields are written as null so a removed tip or video really goes away.
      const summary = await syncPublished(em, LevelSchema, (row) => (row as LevelGuide).number, guides, now, (guide, isNew) => ({
        ...guide,
        unlocksAt: guide.unlocksAt ?? null,
        puzzles: guide.puzzles ?? null,
        video: guide.video ?? null,
        ...(isNew ? { createdAt: now } : {}),
      }));
      if (summary.created + summary.updated + summary.unpublished > 0) {
        await refreshSearchWords(em, 'levels', `select to_tsvector('simple', search_text) from levels where published`);
      }
      await em.upsert(ContentImportSchema, { kind: 'levels', contentHash, importedAt: now });
      return summary;
    });
  }
}
