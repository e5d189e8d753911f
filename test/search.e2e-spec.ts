import type { SearchResults } from 'src/contracts/search';
import { useInProcessSite, type InProcessSiteOptions } from './support/site';

/**
 * The one search over the shipped content (content/): the guides, the blog and the content pages.
 * What a player types must find the right thing first on PostgreSQL and on the embedded database
 * (PGlite with pg_trgm), which must behave the same.
 */
const FIRST_HITS: [query: string, url: string][] = [
  // A typo: level 27 has a brass telescope.
  ['telscope', '/levels/27'],
  // An item from the steps of level 1.
  ['brass key', '/levels/1'],
  // Plurals, of an item and of a word of the steps.
  ['brass keys', '/levels/1'],
  ['telescopes', '/levels/27'],
  // A post's title.
  ['Why our guides show hints first', '/blog/hints-first'],
  // A content page's title.
  ['refund policy', '/refund-policy'],
  // A level number, alone or with the word "level".
  ['27', '/levels/27'],
  ['Level 136', '/levels/136'],
];

const DATABASES: [name: string, options: InProcessSiteOptions][] = [
  ['PostgreSQL', { env: { TRUST_PROXY: 'true' } }],
  ['the embedded database (PGlite)', { database: 'embedded', env: { TRUST_PROXY: 'true' } }],
];

describe.each(DATABASES)('the one search on %s', (_name, options) => {
  const site = useInProcessSite(options);
  let ip = 0;
  /** Each search from a client address of its own (TRUST_PROXY): the rate limit is per client. */
  const api = async (q: string) => {
    const response = await fetch(`${site.url}/api/v1/search?q=${encodeURIComponent(q)}`, { headers: { 'x-forwarded-for': `198.51.100.${++ip}` } });
    expect(response.status).toBe(200);
    return (await response.json()) as SearchResults;
  };

  it.each(FIRST_HITS)('finds for %j first %s', async (query, url) => {
    const results = await api(query);
    expect(results.groups[0]?.hits[0]?.url).toBe(url);
  });

  it('says what it corrected, and marks the words it found', async () => {
    const results = await api('telscope');
    expect(results).toMatchObject({ query: 'telscope', searched: 'telescope', corrections: [{ from: 'telscope', to: 'telescope' }], match: 'all' });
    expect(results.groups[0]).toMatchObject({ kind: 'levels', hits: [{ number: 27, title: [{ text: 'The Locked Observatory' }] }] });
    expect(results.groups[0]!.hits[0]!.snippet).toContainEqual({ text: 'telescope', mark: true });
    // The post that tells players to search for "telescope" comes after the guide.
    expect(results.groups.map((group) => group.kind)).toEqual(['levels', 'posts']);

    const brass = await api('brass key');
    expect(brass.groups[0]!.hits[0]!.snippet).toContainEqual({ text: 'brass key', mark: true });
  });

  it('leaves out a word nothing on the site is close to, and answers no groups when nothing is left', async () => {
    expect(await api('brass qqqxqq')).toMatchObject({ searched: 'brass', unknown: ['qqqxqq'], groups: [{ kind: 'levels' }] });
    expect(await api('qqqxqq')).toMatchObject({ unknown: ['qqqxqq'], groups: [] });
  });
});

describe('GET /api/v1/search and the page /search (PostgreSQL)', () => {
  const site = useInProcessSite({ env: { TRUST_PROXY: 'true' } });
  let ip = 0;
  const get = (path: string, from = `203.0.113.${++ip}`) => fetch(`${site.url}${path}`, { headers: { 'x-forwarded-for': from }, redirect: 'manual' });

  it('refuses a missing, blank, too long or repeated query, a NUL byte, 9 KB and 1 MB with a 4xx shaped {errors, code}', async () => {
    const cases: [string, number][] = [
      ['/api/v1/search', 400],
      ['/api/v1/search?q=', 400],
      ['/api/v1/search?q=%20%20', 400],
      [`/api/v1/search?q=${'x'.repeat(101)}`, 400],
      ['/api/v1/search?q=lock%00key', 400],
      ['/api/v1/search?q=a&q=b', 400],
      ['/api/v1/search?q=key&page=2', 400],
      [`/api/v1/search?q=${'x'.repeat(9000)}`, 400],
      // Past Node's 16 KiB of request head: refused before any route.
      [`/api/v1/search?q=${'x'.repeat(1024 * 1024)}`, 431],
    ];
    for (const [path, status] of cases) {
      const response = await get(path);
      expect([path.slice(0, 60), response.status]).toEqual([path.slice(0, 60), status]);
      expect(await response.json()).toEqual({ errors: [expect.any(String)], code: expect.stringMatching(/^(REQUEST\.INVALID|HTTP\.431)$/) });
    }
  });

  it('answers 60 searches a minute per client, then 429 with Retry-After', async () => {
    const from = '192.0.2.77';
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await get(`/api/v1/search?q=door${i % 3 ? '' : 's'}`, from)).status);
    expect(statuses).toEqual([...Array(60).fill(200), 429]);
    const refused = await get('/api/v1/search?q=door', from);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await get('/api/v1/search?q=door')).status).toBe(200);
  });

  it('answers 60 search pages a minute per client, then a 429 page with Retry-After; other clients and guides still served', async () => {
    const from = '192.0.2.78';
    const statuses: number[] = [];
    // Distinct queries: each one a search, a render and a compression (before: no limit at all).
    for (let i = 0; i < 60; i++) statuses.push((await get(`/search?q=door+${i}`, from)).status);
    expect(statuses).toEqual(Array(60).fill(200));
    const refused = await get('/search?q=door+again', from);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.text()).toContain('429');
    // A query asked before (a cached page) counts too, and so does its payload.
    expect((await get('/search?q=door+1', from)).status).toBe(429);
    expect((await get('/search/_payload.json?q=door+1', from)).status).toBe(429);
    expect((await get('/search?q=door', '192.0.2.79')).status).toBe(200);
    expect((await get('/levels/27', from)).status).toBe(200);
  });

  it('is in the OpenAPI document with its query and its answer', async () => {
    const doc = (await (await get('/api/docs/openapi.json')).json()) as { paths: Record<string, { get?: Record<string, unknown> }> };
    const operation = doc.paths['/api/v1/search']?.get as { parameters: { name: string; required: boolean }[]; responses: Record<string, { content?: unknown }> };
    expect(operation.parameters).toContainEqual(expect.objectContaining({ name: 'q', required: true }));
    expect(JSON.stringify(operation.responses['200']!.content)).toContain('corrections');
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '429']));
  });

  it('shows the results grouped by kind, the words marked, the guide first', async () => {
    const response = await get('/search?q=telscope');
    expect(response.status).toBe(200);
    const html = await response.text();
    const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'));
    expect(main).toMatch(/Showing results for.*<strong[^>]*>telescope<\/strong>/);
    expect(main.indexOf('id="search-levels"')).toBeGreaterThan(0);
    expect(main.indexOf('id="search-levels"')).toBeLessThan(main.indexOf('id="search-posts"'));
    expect(main).toMatch(/<mark[^>]*>telescope<\/mark>/);
    expect(main).toContain('href="/levels/27"');
    expect(html).toContain('<meta name="robots" content="noindex"/>');
  });

  it('sends a level number straight to its guide, and answers the level search messages otherwise', async () => {
    for (const q of ['27', '%2027%20', '027']) {
      const response = await get(`/search?q=${q}`);
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/levels/27');
    }
    expect(await (await get('/search?q=636')).text()).toContain('Invalid level number');
    expect(await (await get('/search?q=')).text()).toContain('Please enter a level number');
    const none = await (await get('/search?q=qqqxqq')).text();
    expect(none).toContain('Nothing found for “qqqxqq”.');
  });

  it('is cached per query like other pages: the same entry for the same q, whatever else the URL carries', async () => {
    const first = await get('/search?q=brass+key');
    const again = await get('/search?q=brass+key&utm_source=x');
    const other = await get('/search?q=telescope');
    expect(first.headers.get('etag')).toMatch(/^"/);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(other.headers.get('etag')).not.toBe(first.headers.get('etag'));
  });

  it('keeps the level list and the blog searches as they were', async () => {
    const levels = await (await get('/levels?query=telescope')).text();
    expect(levels).toContain('The Locked Observatory');
    expect((await get('/levels?level=27')).headers.get('location')).toBe('/levels/27');
    expect(await (await get('/blog?query=hint')).text()).toContain('Why our guides show hints first');
  });
});
