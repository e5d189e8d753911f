import { chunksOfPage, forRoutes, pageChunkMap } from './page-data';

describe('the page chunk map sent with every page', () => {
  const byModule = {
    'web/features/levels/level.page.tsx': ['/assets/level.page-a.js', '/assets/level-bits-b.js', '/assets/seo-c.js'],
    'web/features/billing/pricing.page.tsx': ['/assets/pricing.page-d.js', '/assets/seo-c.js'],
    'web/features/content/faq.page.tsx': [],
  };

  it('names each file once and gives back each page its own files, in order', () => {
    const map = pageChunkMap(byModule);
    expect(map.files).toEqual(['/assets/level.page-a.js', '/assets/level-bits-b.js', '/assets/seo-c.js', '/assets/pricing.page-d.js']);
    for (const [module, files] of Object.entries(byModule)) expect(chunksOfPage(map, module)).toEqual(files);
  });

  it('is smaller as JSON than the lists it replaces (every page carries it)', () => {
    const modules = { level: 'web/features/levels/level.page.tsx', pricing: 'web/features/billing/pricing.page.tsx', faq: 'web/features/content/faq.page.tsx' };
    expect(JSON.stringify(forRoutes(pageChunkMap(byModule), modules)).length).toBeLessThan(JSON.stringify(byModule).length);
  });

  it('is keyed by route id for the browser, which knows no module paths', () => {
    const map = forRoutes(pageChunkMap(byModule), { level: 'web/features/levels/level.page.tsx', pricing: 'web/features/billing/pricing.page.tsx', redirect: undefined });
    expect(map.files).toEqual(pageChunkMap(byModule).files);
    expect(chunksOfPage(map, 'level')).toEqual(byModule['web/features/levels/level.page.tsx']);
    expect(chunksOfPage(map, 'pricing')).toEqual(byModule['web/features/billing/pricing.page.tsx']);
    expect(Object.keys(map.pages)).toEqual(['level', 'pricing']);
  });

  it('has no files for an unknown page, a route without a module, or a build without the map', () => {
    const map = pageChunkMap(byModule);
    expect(chunksOfPage(map, 'web/features/levels/nowhere.page.tsx')).toEqual([]);
    expect(chunksOfPage(map, undefined)).toEqual([]);
    expect(chunksOfPage(undefined, 'web/features/levels/level.page.tsx')).toEqual([]);
  });
});
