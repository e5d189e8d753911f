import { loadConfig } from 'src/config/app-config';
import type { SiteContentService } from 'src/modules/content';
import type { LevelsService } from 'src/modules/levels';
import type { ContentImporter } from 'src/platform/content/content-importer';
import { SeoController } from './seo.controller';
import type { ServerEntrySource } from './server-entry-source.port';

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
