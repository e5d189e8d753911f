import type { PageData } from 'src/contracts/page-data';
import type { SearchResults } from 'src/contracts/search';
import { fakePageData } from 'test/support/fake-page-data';
import { pageMatch, renderMain } from 'test/support/page-match';
import { serverEntry } from 'web/entry-server';

const HOSTILE = '<img src=x onerror=alert(1)>';
const results: SearchResults = {
  query: 'telscope',
  searched: 'telescope',
  corrections: [{ from: 'telscope', to: 'telescope' }],
  unknown: [],
  match: 'all',
  groups: [
    {
      kind: 'posts',
      total: 7,
      hits: [{ url: '/blog/2026/search-every-guide', slug: '2026/search-every-guide', publishedAt: '2026-11-20T00:00:00.000Z', title: [{ text: 'Search every guide' }], snippet: [{ text: 'like ' }, { text: 'telescope', mark: true }] }],
    },
    {
      kind: 'levels',
      total: 1,
      hits: [{ url: '/levels/27', number: 27, difficulty: 'medium', title: [{ text: `The ${HOSTILE} Observatory` }], snippet: [{ text: 'a brass ' }, { text: `telescope ${HOSTILE}`, mark: true }] }],
    },
  ],
};
const data: PageData = { ...fakePageData(), search: { results: async () => results } };

const render = (path: string) => renderMain(path, data);

describe('the search page', () => {
  it('shows the groups in the order given, each with its count, the matches in <mark> and every text escaped', async () => {
    const main = await render('/search?q=telscope');
    expect(main.indexOf('id="search-posts"')).toBeLessThan(main.indexOf('id="search-levels"'));
    expect(main).toMatch(/<h2 id="search-posts"[^>]*>Blog posts/);
    expect(main).toContain('1 of 7');
    expect(main).toContain('<mark class="');
    expect(main).toMatch(/<mark[^>]*>telescope &lt;img src=x onerror=alert\(1\)&gt;<\/mark>/);
    expect(main).toContain('The &lt;img src=x onerror=alert(1)&gt; Observatory');
    expect(main).not.toContain('<img');
    expect(main).toContain('Level 27 · Medium');
    expect(main).toMatch(/Showing results for.*<strong[^>]*>telescope<\/strong>.*You typed “telscope”/);
    // More posts matched than are shown: a link to the blog's own search of the same words.
    expect(main).toContain('href="/blog?query=telescope"');
  });

  it('answers a level number with its guide, and a number out of range or a blank query with the level search messages', async () => {
    expect(serverEntry.match('/search?q=27', data)).toMatchObject({ kind: 'page' });
    const assets = { scripts: [], styles: [], preloads: [] };
    const state = await serverEntry.payload({ url: 'http://localhost:3000/search?q=27', match: pageMatch('/search?q=27', data), data, headers: {}, assets, buildId: 'test', signal: new AbortController().signal });
    expect(state).toMatchObject({ status: 302, redirect: '/levels/27' });
    expect(await render('/search?q=636')).toContain('Invalid level number');
    expect(await render('/search?q=')).toContain('Please enter a level number');
  });

  it('shows an empty search box and no results without a query', async () => {
    const main = await render('/search');
    expect(main).toContain('name="q"');
    expect(main).not.toContain('Nothing found');
    expect(main).not.toContain('<section');
  });
});
