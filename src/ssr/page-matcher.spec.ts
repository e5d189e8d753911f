import { fakePageData } from 'test/support/fake-page-data';
import { fakeRequest, fakeServerEntry, foundMatch } from 'test/support/fake-http';
import { PageMatcher } from './page-matcher';
import { pageTarget } from './page-target';
import type { ServerEntrySource } from './server-entry-source.port';
import type { SitePageData } from './site-page-data';

function matcher() {
  const fake = fakeServerEntry({ match: (path) => foundMatch({ pattern: path.startsWith('/levels/') ? '/levels/:id' : '*' }) });
  const source = { entry: async () => fake.entry } as unknown as ServerEntrySource;
  return { pageMatcher: new PageMatcher(source, { data: fakePageData() } as SitePageData), calls: fake.calls };
}

describe('PageMatcher', () => {
  it('asks the server entry once per request, with the locale hints of pages only', async () => {
    const { pageMatcher, calls } = matcher();
    const entry = await pageMatcher.entry();
    const page = fakeRequest('/levels/27', { headers: { cookie: 'locale=fr', 'accept-language': 'fr' } });
    const first = pageMatcher.of(page, pageTarget(page.url), entry);
    expect(pageMatcher.ofLoaded(page, pageTarget(page.url))).toBe(first);
    expect(pageMatcher.label(page)).toBe('/levels/:id');
    expect(calls.match).toEqual(['/levels/27']);
    const hints: unknown[] = [];
    entry.match = (path, _site, given) => (hints.push(given), foundMatch());
    const payload = fakeRequest('/levels/28/_payload.json', { headers: { cookie: 'locale=fr' } });
    pageMatcher.of(payload, pageTarget(payload.url), entry);
    const other = fakeRequest('/levels/28', { headers: { cookie: 'locale=fr' } });
    pageMatcher.of(other, pageTarget(other.url), entry);
    expect(hints).toEqual([undefined, { cookie: 'locale=fr', acceptLanguage: undefined }]);
  });

  it('labels "page" until the entry is loaded, then requests answered before matching by their route', async () => {
    const { pageMatcher, calls } = matcher();
    expect(pageMatcher.ofLoaded(fakeRequest('/levels/27'), pageTarget('/levels/27'))).toBeUndefined();
    expect(pageMatcher.label(fakeRequest('/levels/27'))).toBe('page');
    await pageMatcher.entry();
    expect(pageMatcher.label(fakeRequest('/levels/27/_payload.json'))).toBe('/levels/:id/_payload.json');
    expect(pageMatcher.label(fakeRequest('http://example.com/levels/27'))).toBe('*');
    expect(calls.match).toEqual(['/levels/27']);
  });
});
