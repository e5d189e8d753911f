import { loadConfig } from 'src/config/app-config';
import { ContentDocuments } from 'src/platform/content/content-documents';
import type { ContentImporter } from 'src/platform/content/content-importer';
import { SitemapSources } from 'src/platform/pages/sitemap-sources';
import { fakePageData } from 'test/support/fake-page-data';
import type { ServerEntrySource } from './server-entry-source.port';
import { SiteFilesController } from './site-files.controller';
import type { SitePageData } from './site-page-data';

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
