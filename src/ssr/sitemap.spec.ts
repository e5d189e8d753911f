import { SITEMAP_LIMITS, sitemapIndex, splitSitemap, urlset } from './sitemap';

// All the same length, so a byte limit holds a whole number of them.
const entry = (n: number) => `<url><loc>https://guides.example/levels/${String(n).padStart(6, '0')}</loc></url>`;
const entries = (count: number) => Array.from({ length: count }, (_, i) => entry(i + 1));

describe('splitSitemap', () => {
  it('keeps a sitemap within the limits in one file, an empty one too', () => {
    expect(splitSitemap(entries(3))).toEqual([entries(3)]);
    expect(splitSitemap([])).toEqual([[]]);
    expect(SITEMAP_LIMITS).toEqual({ urls: 50_000, bytes: 50 * 1024 * 1024 });
  });

  it('splits past the protocol’s 50,000 URLs, in order, into full parts', () => {
    const parts = splitSitemap(entries(120_001));
    expect(parts.map((part) => part.length)).toEqual([50_000, 50_000, 20_001]);
    expect(parts.flat()).toEqual(entries(120_001));
  });

  it('splits at a lower URL limit', () => {
    expect(splitSitemap(entries(5), { urls: 2, bytes: SITEMAP_LIMITS.bytes })).toEqual([[entry(1), entry(2)], [entry(3), entry(4)], [entry(5)]]);
  });

  it('splits so that no file passes the byte limit, counting the document around the entries', () => {
    const all = entries(40);
    const limit = urlset(all.slice(0, 10)).length;
    const parts = splitSitemap(all, { urls: 1000, bytes: limit });
    expect(parts.map((part) => part.length)).toEqual([10, 10, 10, 10]);
    // One byte less and the tenth entry moves to the next file.
    expect(splitSitemap(all, { urls: 1000, bytes: limit - 1 })[0]).toHaveLength(9);
    for (const part of parts) expect(Buffer.byteLength(urlset(part))).toBeLessThanOrEqual(limit);
  });

  it('gives an entry larger than the byte limit a file of its own rather than losing it', () => {
    const big = `<url><loc>https://guides.example/${'x'.repeat(500)}</loc></url>`;
    expect(splitSitemap([entry(1), big, entry(2)], { urls: 10, bytes: 300 })).toEqual([[entry(1)], [big], [entry(2)]]);
  });
});

describe('sitemap documents', () => {
  it('writes a urlset with the video namespace and an index of parts', () => {
    expect(urlset([entry(1), entry(2)])).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">\n' +
        `${entry(1)}\n${entry(2)}\n</urlset>\n`,
    );
    expect(sitemapIndex(['https://guides.example/sitemap-1.xml', 'https://guides.example/sitemap-2.xml'])).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
        '<sitemap><loc>https://guides.example/sitemap-1.xml</loc></sitemap>\n<sitemap><loc>https://guides.example/sitemap-2.xml</loc></sitemap>\n' +
        '</sitemapindex>\n',
    );
  });
});
