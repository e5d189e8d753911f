import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import { Test, type TestingModule } from '@nestjs/testing';
import { loadConfig } from 'src/config/app-config';
import { EXPLORE_LIMITS } from 'src/contracts/content';
import { SiteContentService } from 'src/modules/content/application/site-content.service';
import { ContentModule } from 'src/modules/content/content.module';
import { ContentImporter } from 'src/platform/content/content-importer';
import { measureRoundTrips } from 'src/platform/database/round-trips';
import { PlatformModule } from 'src/platform/platform.module';
import { createTestDatabase, type TestDatabase } from './support/services';

/** A blog older and more varied than /explore lists: 30 posts, one a month, 46 tags. */
const POSTS = 30;
const monthOf = (i: number) => {
  const date = new Date(Date.UTC(2026, 5 - i, 15));
  return date.toISOString().slice(0, 7);
};

describe('the blog on PostgreSQL, larger than /explore lists', () => {
  let database: TestDatabase;
  let contentDir: string;
  let app: TestingModule;
  let content: SiteContentService;
  const inContext = <T>(work: () => Promise<T>) => RequestContext.create(app.get(MikroORM).em, work);

  beforeAll(async () => {
    database = await createTestDatabase();
    contentDir = await mkdtemp(join(tmpdir(), 'guides-blog-'));
    await mkdir(join(contentDir, 'blog'));
    // Post i (0 the newest) in the i-th month back from June 2026: every post tagged "common" and a
    // tag of its own, the 15 newest one more.
    for (let i = 0; i < POSTS; i++) {
      const tags = ['common', `own-${String(i).padStart(2, '0')}`, ...(i < 15 ? [`extra-${String(i).padStart(2, '0')}`] : [])];
      await writeFile(join(contentDir, 'blog', `post-${i}.md`), `---\ntitle: Post number ${i}\ndate: ${monthOf(i)}-15\ntags: [${tags.join(', ')}]\n---\nText of post ${i}.\n`);
    }
    const config = loadConfig({ DATABASE_URL: database.url, MIGRATE_ON_START: 'true', CONTENT_DIR: contentDir, CONTENT_IMPORT_ON_START: 'false' });
    app = await Test.createTestingModule({ imports: [PlatformModule.forRoot(config, { structuredLogs: false }), ContentModule] }).compile();
    await app.init();
    content = app.get(SiteContentService);
    await inContext(() => app.get(ContentImporter).import('site'));
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
    await rm(contentDir, { recursive: true, force: true });
  });

  it('lists on /explore the most used categories and the latest months only, with the counts and where older posts start', async () => {
    const { value: explore, roundTrips } = await inContext(() => measureRoundTrips(() => content.explore()));
    expect(roundTrips).toBe(1);
    expect(explore.tagCount).toBe(46);
    expect(explore.monthCount).toBe(POSTS);
    expect(explore.tags).toHaveLength(EXPLORE_LIMITS.tags);
    // Most used first, then by name.
    expect(explore.tags[0]).toEqual({ tag: 'common', posts: POSTS });
    expect(explore.tags.slice(1, 3).map((t) => t.tag)).toEqual(['extra-00', 'extra-01']);
    expect(explore.months.map((m) => m.month)).toEqual(Array.from({ length: EXPLORE_LIMITS.months }, (_, i) => monthOf(i)));
    // 24 posts in the months listed: the 25th newest is the first on page 3 of the blog (10 a page).
    expect(explore.olderPostsPage).toBe(3);
    const page = await inContext(() => content.posts({ page: 3 }));
    expect(page.posts.map((post) => post.slug)).toContain(`post-${EXPLORE_LIMITS.months}`);
    expect(page.posts.map((post) => post.slug)).toContain(`post-${EXPLORE_LIMITS.months - 1}`);
  });

  it('gives the sitemap every category, month and post, newest first, without their bodies', async () => {
    const archive = await inContext(() => content.archive());
    expect(archive.tags).toHaveLength(46);
    expect(archive.months).toHaveLength(POSTS);
    const posts = await inContext(() => content.postSitemapEntries());
    expect(posts.map((post) => post.slug)).toEqual(Array.from({ length: POSTS }, (_, i) => `post-${i}`));
    expect(posts[0]).toEqual({ slug: 'post-0', publishedAt: new Date('2026-06-15T00:00:00.000Z') });
  });
});
