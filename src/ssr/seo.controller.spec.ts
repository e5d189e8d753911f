import { MikroORM } from '@mikro-orm/core';
import { loadConfig } from 'src/config/app-config';
import { SiteContentRepository, SiteContentService } from 'src/modules/content';
import { aPage, aPost, InMemorySiteContentRepository } from 'src/modules/content/testing/in-memory-site-content-repository';
import { GuideVoteRepository, LevelRepository, LevelsService } from 'src/modules/levels';
import { InMemoryGuideVoteRepository } from 'src/modules/levels/testing/in-memory-guide-vote-repository';
import { aLevel, InMemoryLevelRepository } from 'src/modules/levels/testing/in-memory-level-repository';
import { ContentChangeFeed, LocalContentChangeFeed } from 'src/platform/content/content-change-feed.port';
import { ContentImportLog } from 'src/platform/content/content-import-log.port';
import { ContentImporter } from 'src/platform/content/content-importer';
import { ContentReader } from 'src/platform/content/content-reader.port';
import { InMemoryContentImportLog } from 'src/platform/content/testing/in-memory-content-import-log';
import { InMemoryContentReader } from 'src/platform/content/testing/in-memory-content-reader';
import { errorOf, testConfig, useControllers } from 'src/platform/http/testing/controller-harness';
import { fakeServerEntry } from 'test/support/fake-http';
import { SeoController } from './seo.controller';
import { ServerEntrySource } from './server-entry-source.port';

describe('SeoController', () => {
  function controller() {
    const calls = { sitemap: 0, levelsFeed: 0, blogFeed: 0 };
    const levels = {
      sitemapEntries: async () => (calls.sitemap++, [{ number: 27, title: 'The Telescope', updatedAt: new Date(0), video: null }]),
      recentlyUpdated: async () => (calls.levelsFeed++, []),
    } as unknown as LevelsService;
    const content = {
      postSitemapEntries: async () => [],
      publishedPages: async () => [],
      archive: async () => ({ tags: [], months: [] }),
      latestPosts: async () => (calls.blogFeed++, []),
    } as unknown as SiteContentService;
    const pages = { entry: async () => ({ sitemapPaths: () => ['/'] }) } as unknown as ServerEntrySource;
    const listeners: (() => void)[] = [];
    const importer = { onImported: (listener: () => void) => listeners.push(listener) } as unknown as ContentImporter;
    const seo = new SeoController(loadConfig({}), levels, content, pages, importer);
    return { seo, calls, imported: () => listeners.forEach((listener) => listener()) };
  }

  it('builds the sitemap and the feeds once, like cached pages, and again after content is imported', async () => {
    const { seo, calls, imported } = controller();
    const first = await seo.sitemap();
    expect(first).toContain('/levels/27');
    for (let i = 0; i < 5; i++) {
      expect(await seo.sitemap()).toBe(first);
      await seo.levelsFeed();
      await seo.blogFeed();
    }
    // Before: every request read every guide again.
    expect(calls).toEqual({ sitemap: 1, levelsFeed: 1, blogFeed: 1 });
    imported();
    await seo.sitemap();
    await seo.levelsFeed();
    expect(calls).toEqual({ sitemap: 2, levelsFeed: 2, blogFeed: 1 });
  });
});

describe('SeoController (in process)', () => {
  let env: Record<string, string>;
  beforeEach(() => {
    env = {};
  });
  const api = useControllers(() => ({
    controllers: [SeoController],
    providers: [
      LevelsService,
      SiteContentService,
      ContentImporter,
      { provide: LevelRepository, useValue: new InMemoryLevelRepository([aLevel(27, { title: 'The <Locked> Observatory', updatedAt: new Date('2026-11-02T00:00:00Z') }), aLevel(28)]) },
      { provide: GuideVoteRepository, useValue: new InMemoryGuideVoteRepository() },
      { provide: SiteContentRepository, useValue: new InMemorySiteContentRepository({ posts: [aPost('first-steps', { title: 'First & foremost' })], pages: [aPage('about'), aPage('refund-policy')] }) },
      { provide: ServerEntrySource, useValue: { entry: async () => fakeServerEntry().entry } },
      { provide: ContentReader, useValue: new InMemoryContentReader() },
      { provide: ContentImportLog, useValue: new InMemoryContentImportLog() },
      { provide: ContentChangeFeed, useValue: new LocalContentChangeFeed() },
      // The importer opens a MikroORM context only when it imports, which these routes never do.
      { provide: MikroORM, useValue: {} },
    ],
    config: testConfig(env),
  }));

  it('names the sitemap in robots.txt and keeps crawlers out of the API', async () => {
    const robots = await api.inject({ method: 'GET', url: '/robots.txt' });
    expect([robots.headers['content-type'], robots.body]).toEqual(['text/plain; charset=utf-8', 'User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: https://guides.example/sitemap.xml\n']);
  });

  it('lists the pages, posts and guides in one sitemap (the refund policy only with payments on); no parts while it is one file', async () => {
    const sitemap = await api.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(sitemap.headers['content-type']).toBe('application/xml; charset=utf-8');
    for (const path of ['/', '/blog/first-steps', '/about', '/refund-policy', '/levels/27', '/levels/28', '/category/news']) expect(sitemap.body).toContain(`<loc>https://guides.example${path}</loc>`);
    const part = await api.inject({ method: 'GET', url: '/sitemap-1.xml' });
    expect([part.statusCode, errorOf(part).code]).toEqual([404, 'REQUEST.NOT_FOUND']);
  });

  it('splits a sitemap past SITEMAP_MAX_URLS into an index of parts', async () => {
    env = { SITEMAP_MAX_URLS: '3', HAS_PAYMENT: 'false' };
    const index = await api.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(index.body).toContain('<sitemapindex');
    expect(index.body).toContain('<loc>https://guides.example/sitemap-2.xml</loc>');
    const parts = [];
    for (let i = 1; ; i++) {
      const part = await api.inject({ method: 'GET', url: `/sitemap-${i}.xml` });
      if (part.statusCode !== 200) break;
      parts.push(part.body);
    }
    expect(parts.join('')).toContain('/levels/28');
    expect(parts.join('')).not.toContain('/refund-policy');
    expect((await api.inject({ method: 'GET', url: '/sitemap-x.xml' })).statusCode).toBe(404);
  });

  it('serves the blog and levels feeds as Atom, every text escaped', async () => {
    const blog = await api.inject({ method: 'GET', url: '/blog/feed.xml' });
    expect([blog.headers['content-type'], blog.headers['cache-control']]).toEqual(['application/atom+xml; charset=utf-8', 'public, max-age=600']);
    expect(blog.body).toContain('<title>First &amp; foremost</title>');
    const levels = await api.inject({ method: 'GET', url: '/levels/feed.xml' });
    expect(levels.body).toContain('The &lt;Locked&gt; Observatory');
    expect(levels.body).not.toContain('<Locked>');
  });

  it("serves the web app manifest from the site's settings", async () => {
    const manifest = await api.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect([manifest.statusCode, manifest.headers['content-type']]).toEqual([200, 'application/manifest+json; charset=utf-8']);
    expect(manifest.json()).toMatchObject({ start_url: expect.any(String), name: expect.any(String) });
  });
});
