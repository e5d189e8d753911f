import { MikroORM } from '@mikro-orm/core';
import { BillingSitemap } from 'src/modules/billing/adapters/pages/billing.sitemap';
import { SiteContentRepository, SiteContentService } from 'src/modules/content';
import { BlogFeedController } from 'src/modules/content/adapters/http/blog-feed.controller';
import { ContentSitemap } from 'src/modules/content/adapters/pages/content.sitemap';
import { aPage, aPost, InMemorySiteContentRepository } from 'src/modules/content/testing/in-memory-site-content-repository';
import { GuideVoteRepository, LevelRepository, LevelsService } from 'src/modules/levels';
import { LevelsFeedController } from 'src/modules/levels/adapters/http/levels-feed.controller';
import { LevelsSitemap } from 'src/modules/levels/adapters/pages/levels.sitemap';
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
import { loadConfig } from 'src/config/app-config';
import { ContentDocuments } from 'src/platform/content/content-documents';
import { SitemapSources } from 'src/platform/pages/sitemap-sources';
import { fakePageData } from 'test/support/fake-page-data';
import { ServerEntrySource } from './server-entry-source.port';
import { SiteFilesController } from './site-files.controller';
import { SitePageData } from './site-page-data';

const BASE = 'http://localhost:3000';

describe('SiteFilesController', () => {
  function controller(env: Record<string, string> = {}) {
    const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: BASE, ...env });
    const listeners: (() => void)[] = [];
    const importer = { onImported: (listener: () => void) => listeners.push(listener) } as unknown as ContentImporter;
    const calls = { levels: 0 };
    const sources = new SitemapSources();
    // Added in another order than they are listed: by name, content before levels.
    sources.add({
      name: 'levels',
      urls: async () => (
        calls.levels++,
        [
          {
            path: '/levels/27',
            lastmod: '2026-11-01T00:00:00.000Z',
            video: { thumbnailPath: '/og/levels/27.png', title: 'Level 27 <walkthrough>', description: 'Doors & keys', playerUrl: 'https://www.youtube-nocookie.com/embed/abc', durationSeconds: 252 },
          },
        ]
      ),
    });
    sources.add({ name: 'content', urls: async () => [{ path: '/category/tips' }, { path: '/refund-policy', lastmod: '2026-10-01' }] });
    sources.add({ name: 'billing', withheld: () => ['/refund-policy'] });
    const paymentsOnlyWhenOn = (site: { config: { settings: { has_payment: boolean } } }) => ['/', ...(site.config.settings.has_payment ? ['/pricing'] : [])];
    const pages = { entry: async () => ({ sitemapPaths: paymentsOnlyWhenOn }) } as unknown as ServerEntrySource;
    const site = { data: fakePageData({ config: config.public }) } as SitePageData;
    const files = new SiteFilesController(config, sources, new ContentDocuments(config, importer), pages, site);
    return { files, calls, imported: () => listeners.forEach((listener) => listener()) };
  }

  it("lists the route table's pages, then the modules' entries by source name, less what a module withholds, escaped for XML", async () => {
    const xml = await controller({ HAS_PAYMENT: 'false' }).files.sitemap();
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">\n' +
        `<url><loc>${BASE}/</loc></url>\n` +
        `<url><loc>${BASE}/category/tips</loc></url>\n` +
        `<url><loc>${BASE}/levels/27</loc><lastmod>2026-11-01T00:00:00.000Z</lastmod><video:video><video:thumbnail_loc>${BASE}/og/levels/27.png</video:thumbnail_loc>` +
        '<video:title>Level 27 &lt;walkthrough&gt;</video:title><video:description>Doors &amp; keys</video:description>' +
        '<video:player_loc>https://www.youtube-nocookie.com/embed/abc</video:player_loc><video:duration>252</video:duration></video:video></url>\n' +
        '</urlset>\n',
    );
  });

  it("asks the route table with the site's settings: pages marked with payments are listed while they are on", async () => {
    const xml = await controller({ HAS_LOGIN: 'true', HAS_PAYMENT: 'true' }).files.sitemap();
    expect(xml).toContain(`<url><loc>${BASE}/pricing</loc></url>`);
  });

  it('builds the sitemap once, like cached pages, and again after content is imported', async () => {
    const { files, calls, imported } = controller();
    const first = await files.sitemap();
    for (let i = 0; i < 5; i++) expect(await files.sitemap()).toBe(first);
    expect(calls.levels).toBe(1);
    imported();
    await files.sitemap();
    expect(calls.levels).toBe(2);
  });

  it('points robots.txt to the sitemap', () => {
    expect(controller().files.robots()).toBe(`User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${BASE}/sitemap.xml\n`);
  });
});

/**
 * robots.txt, the sitemap (the modules' real sitemap sources over their services and in-memory
 * repositories), the feeds and the manifest, in process through Fastify.
 */
describe('site files and feeds (in process)', () => {
  let env: Record<string, string>;
  beforeEach(() => {
    env = {};
  });
  const api = useControllers(() => ({
    controllers: [SiteFilesController, BlogFeedController, LevelsFeedController],
    providers: [
      LevelsService,
      SiteContentService,
      ContentImporter,
      ContentDocuments,
      SitemapSources,
      LevelsSitemap,
      ContentSitemap,
      BillingSitemap,
      { provide: LevelRepository, useValue: new InMemoryLevelRepository([aLevel(27, { title: 'The <Locked> Observatory', updatedAt: new Date('2026-11-02T00:00:00Z') }), aLevel(28)]) },
      { provide: GuideVoteRepository, useValue: new InMemoryGuideVoteRepository() },
      { provide: SiteContentRepository, useValue: new InMemorySiteContentRepository({ posts: [aPost('first-steps', { title: 'First & foremost' })], pages: [aPage('about'), aPage('refund-policy')] }) },
      { provide: ServerEntrySource, useValue: { entry: async () => fakeServerEntry().entry } },
      { provide: SitePageData, useValue: { data: fakePageData() } },
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

  it('splits a sitemap past SITEMAP_MAX_URLS into an index of parts, without the refund policy while payments are off', async () => {
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
