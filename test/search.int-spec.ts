import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import { Test, type TestingModule } from '@nestjs/testing';
import { loadConfig } from 'src/config/app-config';
import { SearchService } from 'src/modules/search/application/search.service';
import { SearchModule } from 'src/modules/search/search.module';
import { ContentImporter } from 'src/platform/content/content-importer';
import { PlatformModule } from 'src/platform/platform.module';
import { createTestDatabase, type TestDatabase } from './support/services';

const FIXTURES = join(__dirname, 'fixtures/content');

/** The lexicon of spelling corrections follows the imports: a new word is offered, a removed one no longer. */
describe('the search lexicon on PostgreSQL', () => {
  let database: TestDatabase;
  let contentDir: string;
  let app: TestingModule;
  let importer: ContentImporter;
  let search: SearchService;
  const inContext = <T>(work: () => Promise<T>) => RequestContext.create(app.get(MikroORM).em, work);

  beforeAll(async () => {
    database = await createTestDatabase();
    contentDir = await mkdtemp(join(tmpdir(), 'guides-search-'));
    await cp(FIXTURES, contentDir, { recursive: true });
    const config = loadConfig({ DATABASE_URL: database.url, MIGRATE_ON_START: 'true', CONTENT_DIR: contentDir, CONTENT_IMPORT_ON_START: 'false' });
    app = await Test.createTestingModule({ imports: [PlatformModule.forRoot(config, { structuredLogs: false }), SearchModule] }).compile();
    await app.init();
    importer = app.get(ContentImporter);
    search = app.get(SearchService);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
    await rm(contentDir, { recursive: true, force: true });
  });

  it('corrects nothing before the first import, and every word of the guides after it', async () => {
    expect(await inContext(() => search.search('telscope'))).toMatchObject({ corrections: [], unknown: ['telscope'], groups: [] });
    await inContext(() => importer.import('levels'));
    const results = await inContext(() => search.search('telscope'));
    expect(results.corrections).toEqual([{ from: 'telscope', to: 'telescope' }]);
    expect(results.groups[0]!.hits[0]).toMatchObject({ url: '/levels/10', title: [{ text: 'The ' }, { text: 'Telescope', mark: true }, { text: ' Room' }] });
  });

  it('offers a word a changed guide brings, and no longer one it dropped', async () => {
    const file = join(contentDir, 'levels', '010.md');
    const original = await readFile(file, 'utf8');
    try {
      await writeFile(file, original.replaceAll(/telescope/gi, 'periscope'));
      await inContext(() => importer.import('levels'));
      expect(await inContext(() => search.search('periscpe'))).toMatchObject({ corrections: [{ from: 'periscpe', to: 'periscope' }], groups: [{ kind: 'levels' }] });
      expect(await inContext(() => search.search('telescope'))).toMatchObject({ groups: [] });
    } finally {
      await writeFile(file, original);
      await inContext(() => importer.import('levels'));
    }
    expect((await inContext(() => search.search('telescope'))).groups[0]!.hits[0]!.url).toBe('/levels/10');
  });

  it('reads operators and quotes in a query as words, never as SQL or tsquery syntax', async () => {
    await expect(inContext(() => search.search("' or 1=1 -- & | !( <-> :*"))).resolves.toMatchObject({ groups: [] });
    await expect(inContext(() => search.search("telescope' & 'x"))).resolves.toMatchObject({ groups: [{ kind: 'levels' }] });
  });
});
