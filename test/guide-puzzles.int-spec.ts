import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import { Test, type TestingModule } from '@nestjs/testing';
import sharp from 'sharp';
import { loadConfig } from 'src/config/app-config';
import { pictureUrl } from 'src/contracts/levels';
import { ContentImporter } from 'src/platform/content/content-importer';
import { PlatformModule } from 'src/platform/platform.module';
import { LevelsService } from 'src/modules/levels';
import { GuidePictureStore } from 'src/modules/levels/domain/guide-picture.port';
import { LevelsModule } from 'src/modules/levels/levels.module';
import { createTestDatabase, type TestDatabase } from './support/services';

const FIXTURES = join(__dirname, 'fixtures/content/levels');

/** A flat-colour scene, as the sample content's are. */
const scene = (colour: string, width = 900, height = 600) =>
  sharp({ create: { width, height, channels: 3, background: colour } }).png().toBuffer();

describe('guides with puzzles and step pictures, imported into PostgreSQL', () => {
  let database: TestDatabase;
  let contentDir: string;
  let app: TestingModule;
  const inContext = <T>(work: () => Promise<T>) => RequestContext.create(app.get(MikroORM).em, work);
  const importLevels = () => inContext(() => app.get(ContentImporter).import<{ created: number; updated: number; unchanged: number }>('levels'));
  const picturePath = () => join(contentDir, 'levels/images/010-hinge.png');

  beforeAll(async () => {
    database = await createTestDatabase();
    contentDir = await mkdtemp(join(tmpdir(), 'guides-puzzles-'));
    await mkdir(join(contentDir, 'levels/images'), { recursive: true });
    // The old format beside the new: 003 keeps its one ladder.
    await writeFile(join(contentDir, 'levels/003.md'), await readFile(join(FIXTURES, '003.md')));
    await writeFile(join(contentDir, 'levels/010.md'), await readFile(join(FIXTURES, 'puzzles/010.md')));
    await writeFile(picturePath(), await scene('#335577'));
    const config = loadConfig({ DATABASE_URL: database.url, MIGRATE_ON_START: 'true', CONTENT_DIR: contentDir, CONTENT_IMPORT_ON_START: 'false' });
    app = await Test.createTestingModule({ imports: [PlatformModule.forRoot(config, { structuredLogs: false }), LevelsModule] }).compile();
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
    await rm(contentDir, { recursive: true, force: true });
  });

  it('imports the puzzles and makes each picture into AVIF and WebP copies the site serves', async () => {
    expect(await importLevels()).toMatchObject({ created: 2 });
    const guide = (await inContext(() => app.get(LevelsService).level(10)))!;
    expect(guide.puzzles?.map((p) => [p.id, p.extra ?? 'main'])).toEqual([
      ['hinge', 'main'],
      ['dial', 'main'],
      ['bonus-star', 'bonus'],
    ]);
    const picture = guide.steps[0]!.picture!;
    expect(picture).toMatchObject({ width: 900, height: 600, widths: [480, 900] });
    const store = app.get(GuidePictureStore);
    for (const width of picture.widths) {
      const avif = await inContext(() => store.find(pictureUrl(picture, width, 'avif').split('/').pop()!));
      const webp = await inContext(() => store.find(pictureUrl(picture, width, 'webp').split('/').pop()!));
      expect(avif?.contentType).toBe('image/avif');
      expect((await sharp(webp!.bytes).metadata()).width).toBe(width);
    }
    // The old format next to it: one ladder, no puzzles.
    const old = (await inContext(() => app.get(LevelsService).level(3)))!;
    expect(old.puzzles).toBeUndefined();
    expect(old.hintsHtml.length).toBeGreaterThan(0);
  });

  it('finds a guide by its questions and objects, never by its hints', async () => {
    const found = async (query: string) => (await inContext(() => app.get(LevelsService).list({ page: 1, query }))).levels.map((l) => l.number);
    // "code", "lock" and "bonus" are only in a question or an object, not in the steps.
    expect(await found('dial code')).toEqual([10]);
    expect(await found('dial lock')).toEqual([10]);
    expect(await found('bonus')).toEqual([10]);
    // "It squeaks." is a hint of the telescope: hints never match.
    expect(await found('squeaks')).toEqual([]);
  });

  it('updates the guide when only its picture changed, and drops the old copies', async () => {
    const before = (await inContext(() => app.get(LevelsService).level(10)))!.steps[0]!.picture!;
    await writeFile(picturePath(), await scene('#775533'));
    expect(await importLevels()).toMatchObject({ updated: 1, unchanged: 1 });
    const after = (await inContext(() => app.get(LevelsService).level(10)))!.steps[0]!.picture!;
    expect(after.src).not.toBe(before.src);
    const store = app.get(GuidePictureStore);
    expect(await inContext(() => store.find(pictureUrl(before, 480, 'webp').split('/').pop()!))).toBeNull();
    expect(await inContext(() => store.find(pictureUrl(after, 480, 'webp').split('/').pop()!))).not.toBeNull();
  });

  it('never half-imports: a picture over its bounds leaves every guide as it was', async () => {
    const before = await inContext(() => app.get(LevelsService).level(10));
    await writeFile(join(contentDir, 'levels/010.md'), (await readFile(join(FIXTURES, 'puzzles/010.md'), 'utf8')).replace('Oil the', 'Grease the'));
    await writeFile(picturePath(), await scene('#000000', 4200, 300));
    await expect(importLevels()).rejects.toThrow('levels/010.md: puzzles.1.steps.0.image: levels/images/010-hinge.png is 4200x300 px: at most 4000 px a side');
    expect(await inContext(() => app.get(LevelsService).level(10))).toEqual(before);
  });
});
