import { loadConfig } from 'src/config/app-config';
import type { LevelsPages } from 'src/contracts/levels';
import type { ServerEntry } from 'src/contracts/ssr';
import { PageSections } from 'src/platform/pages/page-sections';
import type { ServerEntrySource } from './server-entry-source.port';
import { SitePageData } from './site-page-data';

const levels = { featured: async () => [] } as unknown as LevelsPages;
const sourceOf = (routes: Record<string, readonly string[]>, fails = false) =>
  ({ entry: async () => (fails ? Promise.reject(new Error('no build')) : ({ pageSections: () => routes } as unknown as ServerEntry)) }) as unknown as ServerEntrySource;

describe('SitePageData: the page data loaders get, composed at start', () => {
  it("holds the site's rules and the sections the modules added", async () => {
    const config = loadConfig({ NODE_ENV: 'test', REDIRECTS: '{"/old": "/new"}' });
    const sections = new PageSections();
    sections.add('levels', levels);
    const site = new SitePageData(config, sections, sourceOf({ home: ['levels'] }));
    expect(() => site.data).toThrow('composed as the application starts');
    await site.onApplicationBootstrap();
    expect(site.data.config).toBe(config.public);
    expect(site.data.redirects).toBe(config.redirects);
    expect(site.data.levels).toBe(levels);
  });

  it('fails the start when a route of the build reads a section no loaded module added', async () => {
    const sections = new PageSections();
    sections.add('levels', levels);
    const site = new SitePageData(loadConfig({ NODE_ENV: 'test' }), sections, sourceOf({ home: ['levels'], search: ['search'] }));
    await expect(site.onApplicationBootstrap()).rejects.toThrow('route search reads search');
  });

  it('leaves a server entry that does not load to the first page request, as before', async () => {
    const site = new SitePageData(loadConfig({ NODE_ENV: 'test' }), new PageSections(), sourceOf({}, true));
    await site.onApplicationBootstrap();
    expect(site.data.levels).toBeUndefined();
  });
});
