import { cp, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import { Test, type TestingModule } from '@nestjs/testing';
import { loadConfig } from 'src/config/app-config';
import { ContentImporter } from 'src/platform/content/content-importer';
import { measureRoundTrips } from 'src/platform/database/round-trips';
import { PlatformModule } from 'src/platform/platform.module';
import { LevelsService } from 'src/modules/levels/application/levels.service';
import { GuideExistsError, NoGuideError } from 'src/modules/levels/domain/levels.errors';
import { GuideVoteRepository } from 'src/modules/levels/domain/guide-vote-repository.port';
import { LevelRepository } from 'src/modules/levels/domain/level-repository.port';
import { LevelsModule } from 'src/modules/levels/levels.module';
import { createTestDatabase, type TestDatabase } from './support/services';

const FIXTURES = join(__dirname, 'fixtures/content');

describe('level guides on PostgreSQL', () => {
  let database: TestDatabase;
  let contentDir: string;
  let app: TestingModule;
  let importer: ContentImporter;
  let levels: LevelsService;
  const inContext = <T>(work: () => Promise<T>) => RequestContext.create(app.get(MikroORM).em, work);
  const levelFile = (n: string) => join(contentDir, 'levels', `${n}.md`);

  beforeAll(async () => {
    database = await createTestDatabase();
    contentDir = await mkdtemp(join(tmpdir(), 'guides-content-'));
    await cp(FIXTURES, contentDir, { recursive: true });
    const config = loadConfig({ DATABASE_URL: database.url, MIGRATE_ON_START: 'true', CONTENT_DIR: contentDir, CONTENT_IMPORT_ON_START: 'false' });
    app = await Test.createTestingModule({ imports: [PlatformModule.forRoot(config, { structuredLogs: false }), LevelsModule] }).compile();
    await app.init();
    importer = app.get(ContentImporter);
    levels = app.get(LevelsService);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
    await rm(contentDir, { recursive: true, force: true });
  });

  it('imports every file, then a second import changes nothing', async () => {
    expect(await inContext(() => importer.import('levels', new Date('2026-11-01T00:00:00Z')))).toEqual({
      created: 4,
      updated: 0,
      unchanged: 0,
      unpublished: 0,
    });
    expect(await inContext(() => importer.import('levels', new Date('2026-11-02T00:00:00Z')))).toEqual({
      created: 0,
      updated: 0,
      unchanged: 4,
      unpublished: 0,
    });
    const level = await inContext(() => levels.level(10));
    expect(level?.updatedAt).toBe('2026-11-01T00:00:00.000Z');
    expect(await inContext(() => importer.importIfChanged('levels'))).toBe('unchanged');
  });

  it('updates a changed file and unpublishes a removed one', async () => {
    const original = await readFile(levelFile('003'), 'utf8');
    await writeFile(levelFile('003'), original.replace('The Broom Cupboard', 'The Mop Cupboard'));
    await unlink(levelFile('020'));
    expect(await inContext(() => importer.import('levels'))).toEqual({ created: 0, updated: 1, unchanged: 2, unpublished: 1 });
    expect((await inContext(() => levels.level(3)))?.title).toBe('The Mop Cupboard');
    expect(await inContext(() => levels.level(20))).toBeNull();
    expect(await inContext(() => levels.levelPage(20))).toMatchObject({ kind: 'not-covered', number: 20 });

    // Put it back: the level returns.
    await cp(join(FIXTURES, 'levels/020.md'), levelFile('020'));
    expect(await inContext(() => importer.import('levels'))).toMatchObject({ updated: 1 });
    expect((await inContext(() => levels.level(20)))?.title).toBe('The Hidden Library');
  });

  it('leaves the database untouched when one file is malformed', async () => {
    const before = await inContext(() => levels.list({ page: 1, query: undefined }));
    await writeFile(levelFile('004'), '---\nlevel: 4\ntitle: Half a file\n---\n');
    await writeFile(levelFile('003'), (await readFile(levelFile('003'), 'utf8')).replace('The Mop Cupboard', 'Should Not Appear'));
    await expect(inContext(() => importer.import('levels'))).rejects.toThrow('levels/004.md: difficulty: ');
    expect(await inContext(() => levels.list({ page: 1, query: undefined }))).toEqual(before);
    await unlink(levelFile('004'));
    await cp(join(FIXTURES, 'levels/003.md'), levelFile('003'));
    await inContext(() => importer.import('levels'));
  });

  it('refuses two files for the same level', async () => {
    await cp(levelFile('010'), join(contentDir, 'levels', '010-copy.md'));
    await expect(inContext(() => importer.import('levels'))).rejects.toThrow('levels/010.md: level: 10 is also in levels/010-copy.md');
    await unlink(join(contentDir, 'levels', '010-copy.md'));
  });

  it('finds the previous and next guides across gaps', async () => {
    expect(await inContext(() => levels.levelPage(10))).toMatchObject({ kind: 'guide', prev: { number: 3 }, next: { number: 11 } });
    expect(await inContext(() => levels.levelPage(15))).toMatchObject({ kind: 'not-covered', prev: { number: 11 }, next: { number: 20 } });
    const first = await inContext(() => levels.levelPage(3));
    expect(first.prev).toBeUndefined();
    const last = await inContext(() => levels.levelPage(500));
    expect(last).toMatchObject({ kind: 'not-covered', prev: { number: 20 } });
    expect(last.next).toBeUndefined();
  });

  it('lists by difficulty and searches the guides with full-text search', async () => {
    const all = await inContext(() => levels.list({ page: 1, query: undefined }));
    expect(all.levels.map((l) => l.number)).toEqual([3, 10, 11, 20]);
    expect(all.counts).toEqual({ easy: 1, medium: 1, hard: 2, all: 4 });
    const hard = await inContext(() => levels.list({ page: 1, query: undefined, difficulty: 'hard' }));
    expect(hard.levels.map((l) => l.number)).toEqual([11, 20]);
    // Stemming: "constellation" finds "constellations"; words in steps count too.
    expect((await inContext(() => levels.list({ page: 1, query: 'constellation' }))).levels.map((l) => l.number)).toEqual([10]);
    expect((await inContext(() => levels.list({ page: 1, query: 'pump water' }))).levels.map((l) => l.number)).toEqual([11]);
    const none = await inContext(() => levels.list({ page: 1, query: 'spaceship' }));
    expect(none).toMatchObject({ levels: [], total: 0, pageCount: 1 });
    // Operators in the query are read as words, never as SQL or tsquery syntax.
    await expect(inContext(() => levels.list({ page: 1, query: "' or 1=1 -- & | !(" }))).resolves.toMatchObject({ total: 0 });
    expect((await inContext(() => levels.list({ page: 2, query: undefined }))).levels).toEqual([]);
  });

  it('answers a list page with its total and the filter counts in one round trip, past the last page too', async () => {
    const roundTrips = async <T>(work: () => Promise<T>) => inContext(() => measureRoundTrips(work));
    const hard = await roundTrips(() => levels.list({ page: 1, query: undefined, difficulty: 'hard' }));
    expect(hard).toMatchObject({ roundTrips: 1, value: { total: 2, pageCount: 1, counts: { easy: 1, medium: 1, hard: 2, all: 4 } } });
    // The text narrows the counts; the difficulty only the page and its total.
    const words = await roundTrips(() => levels.list({ page: 1, query: 'constellation', difficulty: 'hard' }));
    expect(words).toMatchObject({ roundTrips: 1, value: { levels: [], total: 0, counts: { easy: 0, medium: 1, hard: 0, all: 1 } } });
    const past = await roundTrips(() => levels.list({ page: 9, query: undefined }));
    expect(past).toMatchObject({ roundTrips: 1, value: { levels: [], total: 4, pageCount: 1, counts: { all: 4 } } });
  });

  it('reads the hardest guides and the feed’s latest changes in one query each, bounded', async () => {
    // Hard: 11 (6:00) and 20 (7:30); longest first.
    expect(await inContext(() => levels.hardest())).toEqual({ levels: [expect.objectContaining({ number: 20 }), expect.objectContaining({ number: 11 })], total: 2 });
    // A page's worth at most, and the count of them all.
    expect(await inContext(() => app.get(LevelRepository).hardest(1))).toEqual({ levels: [expect.objectContaining({ number: 20 })], total: 2 });
    const recent = await inContext(() => levels.recentlyUpdated(10));
    expect(recent.map((guide) => guide.number).sort((a, b) => a - b)).toEqual([3, 10, 11, 20]);
    expect(recent.every((guide, i) => i === 0 || guide.updatedAt.getTime() <= recent[i - 1]!.updatedAt.getTime())).toBe(true);
    expect(await inContext(() => levels.recentlyUpdated(2))).toEqual(recent.slice(0, 2));
  });

  it("reads the home page's featured guides and guide runs in one round trip, as featured() and publishedRuns() read them apart", async () => {
    const repository = app.get(LevelRepository);
    const home = await inContext(() => measureRoundTrips(() => repository.featuredAndRuns([3, 11, 99])));
    expect(home.roundTrips).toBe(1);
    expect(home.value.featured.map((guide) => guide.number)).toEqual([3, 11]);
    expect(home.value.runs).toEqual([[3, 3], [10, 11], [20, 20]]);
    expect(home.value).toEqual({ featured: await inContext(() => repository.featured([3, 11, 99])), runs: await inContext(() => repository.publishedRuns()) });
    expect(await inContext(() => repository.featuredAndRuns([]))).toEqual({ featured: [], runs: home.value.runs });
  });

  it('counts one guide request per browser, even when sent twice at once', async () => {
    const results = await Promise.all([
      inContext(() => levels.requestGuide(42, 'browser-a')),
      inContext(() => levels.requestGuide(42, 'browser-a')),
      inContext(() => levels.requestGuide(42, 'browser-a')),
    ]);
    expect(results.filter((r) => r.counted)).toHaveLength(1);
    expect((await inContext(() => levels.requestGuide(42, 'browser-b'))).requests).toBe(2);
    await inContext(() => levels.requestGuide(7, 'browser-a'));
    expect(await inContext(() => levels.mostRequested(10))).toEqual([
      expect.objectContaining({ level: 42, requests: 2 }),
      expect.objectContaining({ level: 7, requests: 1 }),
    ]);
  });

  it('takes guide requests only for levels without a guide, and answers only about guides that exist', async () => {
    await expect(inContext(() => levels.requestGuide(10, 'browser-a'))).rejects.toThrow(new GuideExistsError(10));
    await expect(inContext(() => levels.recordFeedback(42, 'browser-a', { helpful: true }))).rejects.toThrow(new NoGuideError(42));
    await expect(inContext(() => levels.guide(42))).rejects.toBeInstanceOf(NoGuideError);
    expect(await inContext(() => levels.mostRequested(10))).not.toContainEqual(expect.objectContaining({ level: 10 }));
    expect(await inContext(() => app.get(GuideVoteRepository).feedbackCounts(42))).toEqual({ helpful: 0, notHelpful: 0 });
  });

  it('keeps one helpfulness answer per browser per level, the latest', async () => {
    await inContext(() => levels.recordFeedback(10, 'browser-a', { helpful: false, reason: 'unclear_step' }));
    await inContext(() => levels.recordFeedback(10, 'browser-a', { helpful: true }));
    await inContext(() => levels.recordFeedback(10, 'browser-b', { helpful: false, reason: 'wrong' }));
    expect(await inContext(() => app.get(GuideVoteRepository).feedbackCounts(10))).toEqual({ helpful: 1, notHelpful: 1 });
  });

  it('reads the level page, its neighbours and its helpful share in one round trip, from the tenth answer on', async () => {
    const page = () => inContext(() => measureRoundTrips(() => levels.levelPage(11)));
    for (let i = 0; i < 9; i++) await inContext(() => levels.recordFeedback(11, `voter-${i}`, i < 6 ? { helpful: true } : { helpful: false, reason: 'wrong' }));
    const nine = await page();
    expect(nine).toMatchObject({ roundTrips: 1, value: { kind: 'guide', prev: { number: 10 }, next: { number: 20 } } });
    expect(nine.value.kind === 'guide' && nine.value.level.helpful).toBeUndefined();
    await inContext(() => levels.recordFeedback(11, 'voter-9', { helpful: true }));
    expect(await page()).toMatchObject({ roundTrips: 1, value: { kind: 'guide', level: { number: 11, helpful: { percent: 70, votes: 10 } } } });
    expect(await inContext(() => levels.guide(11))).toMatchObject({ number: 11, helpful: { percent: 70, votes: 10 } });
    // A level without a guide is one round trip too, and its answers (none) do not matter.
    expect(await inContext(() => measureRoundTrips(() => levels.levelPage(15)))).toMatchObject({ roundTrips: 1, value: { kind: 'not-covered', number: 15 } });
  });
});
