import { join } from 'node:path';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import { Test, type TestingModule } from '@nestjs/testing';
import { Client } from 'pg';
import { loadConfig } from 'src/config/app-config';
import { GUIDE_SORTS, SORT_DIRECTIONS, type GuideInsightRow, type GuideInsightsData, type GuideSort, type SortDirection } from 'src/contracts/guide-insights';
import { GuideInsightsModule } from 'src/modules/guide-insights/guide-insights.module';
import { GuideInsightsService, GuideViews } from 'src/modules/guide-insights';
import { GuideViewLog } from 'src/modules/guide-insights/domain/guide-view-log.port';
import { compareGuides, guideOrder, helpfulRatio, type GuideMeasures } from 'src/modules/guide-insights/domain/guide-order';
import { GuideReportsService } from 'src/modules/guide-reports/application/guide-reports.service';
import { LevelsService } from 'src/modules/levels/application/levels.service';
import { ContentImporter } from 'src/platform/content/content-importer';
import { PlatformModule } from 'src/platform/platform.module';
import { createTestDatabase, type TestDatabase } from './support/services';

const CONTENT_DIR = join(__dirname, 'fixtures/content');
const DAY_MS = 24 * 60 * 60 * 1000;
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString().slice(0, 10);

const measures = (row: GuideInsightRow): GuideMeasures => ({
  level: row.level,
  openReports: row.open_reports,
  helpfulRatio: helpfulRatio(row.helpful_votes, row.votes),
  votes: row.votes,
  viewsRecent: row.views_recent,
  viewsTotal: row.views_total,
  stuck: row.stuck,
  solved: row.solved,
});

/**
 * The read model of /admin/guides on real PostgreSQL: every count it shows (views, votes, reasons,
 * open reports, solved/stuck marks, guide requests) against rows written the way the site writes
 * them, and its ORDER BY against the order the domain states (compareGuides).
 */
describe('guide insights on PostgreSQL', () => {
  let database: TestDatabase;
  let app: TestingModule;
  let sql: Client;
  let insights: GuideInsightsService;
  let levels: LevelsService;
  let reports: GuideReportsService;
  let views: GuideViews;
  const inContext = <T>(work: () => Promise<T>) => RequestContext.create(app.get(MikroORM).em, work);
  const overview = (sort: GuideSort = 'worst', dir: SortDirection = sort === 'helpful' || sort === 'level' ? 'asc' : 'desc', page = 1) =>
    inContext(() => insights.overview({ sort, dir, page }));
  const row = (data: GuideInsightsData, level: number) => data.guides.items.find((r) => r.level === level)!;
  const vote = (level: number, voter: string, helpful: boolean, reason?: 'unclear_step' | 'different_version' | 'wrong') =>
    inContext(() => levels.recordFeedback(level, voter, { helpful, reason }));
  const report = async (level: number, daysAgo: number, handled = false) => {
    const { rows } = await sql.query<{ id: string }>(
      `insert into guide_reports (id, level_number, kind, message, created_at, handled_at) values (gen_random_uuid(), $1, 'wrong_step', $2, now() - make_interval(days => $3), $4) returning id`,
      [level, `report ${daysAgo} days old`, daysAgo, handled ? new Date() : null],
    );
    return rows[0]!.id;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: database.url, MIGRATE_ON_START: 'true', CONTENT_DIR, CONTENT_IMPORT_ON_START: 'false' });
    app = await Test.createTestingModule({ imports: [PlatformModule.forRoot(config, { structuredLogs: false }), GuideInsightsModule] }).compile();
    await app.init();
    [insights, levels, reports, views] = [app.get(GuideInsightsService), app.get(LevelsService), app.get(GuideReportsService), app.get(GuideViews)];
    sql = new Client({ connectionString: database.url });
    await sql.connect();
    // The fixtures' guides: 3, 10, 11 and 20.
    await inContext(() => app.get(ContentImporter).import('levels'));
  });

  afterAll(async () => {
    await sql?.end();
    await app?.close();
    await database?.drop();
  });

  it('shows a guide its helpful share from the 10th answer on (9: none; 10: the share)', async () => {
    for (let i = 0; i < 9; i++) await vote(3, `browser-${i}`, true);
    const nine = await inContext(() => levels.levelPage(3));
    expect(nine.kind === 'guide' && nine.level.helpful).toBeUndefined();
    expect(await inContext(() => levels.guide(3))).not.toHaveProperty('helpful');
    await vote(3, 'browser-9', false, 'wrong');
    const ten = await inContext(() => levels.levelPage(3));
    expect(ten.kind === 'guide' && ten.level.helpful).toEqual({ percent: 90, votes: 10 });
    expect((await inContext(() => levels.guide(3)))?.helpful).toEqual({ percent: 90, votes: 10 });
    // A browser changing its answer moves the share, never the count.
    await vote(3, 'browser-9', true);
    expect((await inContext(() => levels.guide(3)))?.helpful).toEqual({ percent: 100, votes: 10 });
  });

  it('counts every figure of a guide: views (30 days and all), answers and reasons, open reports, solved and stuck', async () => {
    // Answers on 11: 4 yes, 3 "different version", 2 "unclear step", 1 without a reason.
    for (let i = 0; i < 4; i++) await vote(11, `yes-${i}`, true);
    for (let i = 0; i < 3; i++) await vote(11, `version-${i}`, false, 'different_version');
    for (let i = 0; i < 2; i++) await vote(11, `unclear-${i}`, false, 'unclear_step');
    await vote(11, 'silent', false);
    await vote(10, 'one', false, 'unclear_step');
    // Views: counted in memory, then flushed; a level without a guide (15) is dropped on the way in.
    const now = Date.now();
    for (let i = 0; i < 5; i++) views.count(10, now);
    views.count(3, now);
    views.count(15, now);
    expect(await views.flush()).toBe(7);
    await sql.query(`insert into guide_views (level_number, day, views) values (10, $1, 7), (10, $2, 100), (20, $2, 50)`, [day(29), day(30)]);
    // Reports: 12 open on 11 (the page lists the newest 10), 1 open and 1 handled on 20.
    for (let i = 0; i < 12; i++) await report(11, i + 1);
    await report(20, 2);
    await report(20, 1, true);
    // Progress marks, one row per browser.
    await sql.query(
      `insert into progress_marks (level_number, voter_hash, state, updated_at)
       select 10, md5('s' || n), 'solved', now() from generate_series(1, 3) n
       union all select 10, md5('t' || n), 'stuck', now() from generate_series(1, 1) n
       union all select 11, md5('u' || n), 'stuck', now() from generate_series(1, 5) n`,
    );

    const data = await overview();
    // Open reports first (11, 20); then 3, rated (10 answers), before 10, with too few answers to rank.
    expect(data.guides.items.map((r) => r.level)).toEqual([11, 20, 3, 10]);
    expect(row(data, 11)).toMatchObject({
      title: 'The Flooded Cellar',
      votes: 10,
      helpful_votes: 4,
      helpful_percent: 40,
      not_helpful_reasons: { unclear_step: 2, different_version: 3, wrong: 0, none: 1 },
      open_reports: 12,
      stuck: 5,
      solved: 0,
      views_recent: 0,
      views_total: 0,
    });
    expect(row(data, 11).reports).toHaveLength(10);
    expect(row(data, 11).reports[0]).toMatchObject({ level_number: 11, kind: 'wrong_step', message: 'report 1 days old', handled_at: null });
    expect(row(data, 11).reports.map((r) => r.created_at)).toEqual([...row(data, 11).reports.map((r) => r.created_at)].sort().reverse());
    expect(row(data, 10)).toMatchObject({ views_recent: 12, views_total: 112, votes: 1, helpful_percent: null, solved: 3, stuck: 1, open_reports: 0, reports: [] });
    expect(row(data, 20)).toMatchObject({ views_recent: 0, views_total: 50, open_reports: 1 });
    expect(row(data, 3)).toMatchObject({ views_recent: 1, views_total: 1, helpful_percent: 100 });
    expect((await sql.query(`select count(*)::int as n from guide_views where level_number = 15`)).rows[0].n).toBe(0);
  });

  it('shows where players stop on each ladder, and the rung where most still tap "Still stuck"', async () => {
    // As ProgressService writes them: one row per browser per ladder, the hints revealed at its last tap.
    await sql.query(
      `insert into ladder_stops (level_number, ladder, voter_hash, revealed, state, updated_at)
       select 10, 'level', md5('a' || n), 2, 'stuck', now() from generate_series(1, 3) n
       union all select 10, 'level', md5('b' || n), 1, 'stuck', now() from generate_series(1, 1) n
       union all select 10, 'level', md5('c' || n), 3, 'solved', now() from generate_series(1, 2) n`,
    );
    const data = await overview('level', 'asc');
    expect(row(data, 10).stuck_at).toEqual({ ladder: 'level', question: null, revealed: 2, players: 3 });
    expect(row(data, 10).ladders).toEqual([
      {
        ladder: 'level',
        question: null,
        hints: 3,
        rungs: [
          { revealed: 1, solved: 0, stuck: 1 },
          { revealed: 2, solved: 0, stuck: 3 },
          { revealed: 3, solved: 2, stuck: 0 },
        ],
      },
    ]);
    // A guide nobody tapped on yet: its ladder, no rungs, nothing to rewrite.
    expect(row(data, 20)).toMatchObject({ stuck_at: null, ladders: [{ ladder: 'level', hints: 2, rungs: [] }] });
  });

  it('adds the views of processes flushing at once, and keeps counting across a flush', async () => {
    const before = row(await overview(), 20).views_total;
    const others = [app.get(GuideViews), new GuideViews(app.get(GuideViewLog, { strict: false }))];
    for (const process of others) for (let i = 0; i < 25; i++) process.count(20);
    await Promise.all(others.map((process) => process.flush()));
    expect(row(await overview(), 20).views_total).toBe(before + 50);
  });

  it('lists the most requested levels without a guide, as LevelsService.mostRequested does', async () => {
    await inContext(() => levels.requestGuide(15, 'a'));
    await inContext(() => levels.requestGuide(15, 'b'));
    await inContext(() => levels.requestGuide(42, 'a'));
    // A request left from before level 10 had its guide does not count.
    await sql.query(`insert into guide_requests (level_number, voter_hash, created_at) values (10, 'x', now())`);
    const { wanted } = await overview();
    expect(wanted.map((w) => [w.level, w.requests])).toEqual([
      [15, 2],
      [42, 1],
    ]);
    const same = await inContext(() => levels.mostRequested());
    expect(wanted).toEqual(same.map((r) => ({ level: r.level, requests: r.requests, last_requested_at: r.lastRequestedAt.toISOString() })));
  });

  it('marks a report handled once, even 20 times at once; an unknown id is not found', async () => {
    const id = await report(20, 3);
    const answers = await Promise.all(Array.from({ length: 20 }, () => inContext(() => reports.markHandled(id))));
    expect(new Set(answers.map((a) => a.handled_at)).size).toBe(1);
    const stored = (await sql.query(`select handled_at from guide_reports where id = $1`, [id])).rows[0].handled_at as Date;
    expect(stored.toISOString()).toBe(answers[0]!.handled_at);
    expect((await inContext(() => reports.markHandled(id))).handled_at).toBe(answers[0]!.handled_at);
    await expect(inContext(() => reports.markHandled('00000000-0000-4000-8000-000000000000'))).rejects.toMatchObject({ code: 'GUIDE_REPORTS.NOT_FOUND' });
    expect(row(await overview(), 20).open_reports).toBe(1);
  });

  describe('with a catalogue of 64 guides', () => {
    beforeAll(async () => {
      // 60 more guides with varied counts (a deterministic spread), so the order has something to decide.
      await sql.query(
        `insert into levels (number, title, difficulty, reference_seconds, intro_html, tips, hints, steps, game_version, verified_on, search_text, source_hash, published, created_at, updated_at)
         select n, 'Synthetic ' || n, (array['easy', 'medium', 'hard'])[1 + n % 3], 60, '', '[]', '[]', '[]', '1.0', '2026-11-01', '', md5(n::text), true, now(), now()
         from generate_series(100, 159) n`,
      );
      await sql.query(
        `insert into guide_feedback (level_number, voter_hash, helpful, reason, created_at, updated_at)
         select n, md5(n || '-' || v), v <= n % 9, case when v > n % 9 then (array['unclear_step', 'different_version', 'wrong', null])[1 + v % 4] end, now(), now()
         from generate_series(100, 159) n, generate_series(1, 14) v where v <= n % 15`,
      );
      await sql.query(`insert into guide_views (level_number, day, views) select n, $1, (n * 7) % 11 from generate_series(100, 159) n`, [day(0)]);
      await sql.query(
        `insert into progress_marks (level_number, voter_hash, state, updated_at)
         select n, md5('p' || n || '-' || m), case when m % 3 = 0 then 'solved' else 'stuck' end, now() from generate_series(100, 159) n, generate_series(1, 4) m where m <= n % 5`,
      );
      await sql.query(`insert into guide_reports (id, level_number, kind, created_at) select gen_random_uuid(), n, 'other', now() from generate_series(100, 159) n where n % 4 = 0`);
    });

    it('pages 50 at a time with the total, and answers past the last page with no rows', async () => {
      const first = await overview();
      expect(first.guides).toMatchObject({ total: 64, page: 1, pages: 2 });
      expect(first.guides.items).toHaveLength(50);
      expect((await overview('worst', 'desc', 2)).guides.items).toHaveLength(14);
      expect((await overview('worst', 'desc', 9)).guides).toMatchObject({ items: [], total: 64, page: 9, pages: 2 });
    });

    it('sorts in the database exactly as the domain order says, for every sort and direction', async () => {
      const everything = [...(await overview('level', 'asc', 1)).guides.items, ...(await overview('level', 'asc', 2)).guides.items].map(measures);
      expect(everything).toHaveLength(64);
      for (const sort of GUIDE_SORTS) {
        for (const dir of SORT_DIRECTIONS) {
          const fromDatabase = [...(await overview(sort, dir, 1)).guides.items, ...(await overview(sort, dir, 2)).guides.items].map((r) => r.level);
          const expected = [...everything].sort(compareGuides(guideOrder(sort, dir))).map((g) => g.level);
          expect({ sort, dir, order: fromDatabase }).toEqual({ sort, dir, order: expected });
        }
      }
    });
  });
});
