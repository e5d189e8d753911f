import { SitemapSources, type SitemapUrl } from './sitemap-sources';

const paths = (urls: SitemapUrl[]) => urls.map((url) => url.path);

describe('SitemapSources: the sitemap entries modules add', () => {
  it("lists the route table's pages first, then each source's URLs in the order of the sources' names, whatever order they were added in", async () => {
    const sitemap = new SitemapSources();
    sitemap.add({ name: 'levels', urls: async () => [{ path: '/levels/27', lastmod: '2026-11-01T00:00:00.000Z' }] });
    sitemap.add({ name: 'content', urls: async () => [{ path: '/category/tips' }, { path: '/faq' }] });
    expect(paths(await sitemap.urls([{ path: '/' }, { path: '/levels' }]))).toEqual(['/', '/levels', '/category/tips', '/faq', '/levels/27']);
    expect((await sitemap.urls())[2]).toEqual({ path: '/levels/27', lastmod: '2026-11-01T00:00:00.000Z' });
  });

  it('leaves out what a source withholds, asked on every build', async () => {
    let payments = false;
    const sitemap = new SitemapSources();
    sitemap.add({ name: 'content', urls: async () => [{ path: '/terms-of-service' }, { path: '/refund-policy' }] });
    sitemap.add({ name: 'billing', withheld: () => (payments ? [] : ['/refund-policy']) });
    expect(paths(await sitemap.urls())).toEqual(['/terms-of-service']);
    payments = true;
    expect(paths(await sitemap.urls())).toEqual(['/terms-of-service', '/refund-policy']);
  });

  it('refuses a second source of the same name', () => {
    const sitemap = new SitemapSources();
    sitemap.add({ name: 'levels' });
    expect(() => sitemap.add({ name: 'levels' })).toThrow('A sitemap source levels is already added');
  });
});
