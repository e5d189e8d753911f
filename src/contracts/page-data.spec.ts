import { chunksOfPage, type PageChunks } from './page-data';

describe('a page chunk map', () => {
  const map: PageChunks = {
    files: ['/assets/level.page-a.js', '/assets/level-bits-b.js', '/assets/seo-c.js', '/assets/pricing.page-d.js'],
    pages: { level: [0, 1, 2], pricing: [3, 2], faq: [] },
  };

  it('gives back each page its own files, its chunk first', () => {
    expect(chunksOfPage(map, 'level')).toEqual(['/assets/level.page-a.js', '/assets/level-bits-b.js', '/assets/seo-c.js']);
    expect(chunksOfPage(map, 'pricing')).toEqual(['/assets/pricing.page-d.js', '/assets/seo-c.js']);
    expect(chunksOfPage(map, 'faq')).toEqual([]);
  });

  it('has no files for an unknown route, no route, or no map (development)', () => {
    expect(chunksOfPage(map, 'nowhere')).toEqual([]);
    expect(chunksOfPage(map, undefined)).toEqual([]);
    expect(chunksOfPage(undefined, 'level')).toEqual([]);
  });
});
