import { pageChunkMap, readRouteObjects } from './route-objects.mts';

const ROUTES = `import { definePage } from 'web/lib/router/page';
import levelLoader from 'web/features/levels/level.loader';

export const level = definePage({
  id: 'level',
  path: '/levels/:id',
  page: () => import('web/features/levels/level.page'),
  loader: levelLoader,
  cache: true,
  query: ['tab'],
  colorMode: 'dark',
  sample: '/levels/27',
});

/** No page: its loader redirects. */
export const detail = definePage({ id: 'detail', path: '/detail/:slug', loader: levelLoader, sitemap: 'always', access: 'admin' });
`;

describe('the build reading route objects (readRouteObjects)', () => {
  it("reads each route's id and the page its import names, and keeps for the browser its id, page and colorMode only", () => {
    const routes = readRouteObjects(ROUTES, 'levels.routes.ts');
    expect(routes.map(({ id, page, browserText }) => ({ id, page, browserText }))).toEqual([
      { id: 'level', page: 'web/features/levels/level.page', browserText: "{ id: 'level', page: () => import('web/features/levels/level.page'), colorMode: 'dark' }" },
      { id: 'detail', page: undefined, browserText: "{ id: 'detail' }" },
    ]);
    // The offsets are the object literal's: replacing it leaves a call the browser runs.
    const [level] = routes;
    expect(ROUTES.slice(level!.start, level!.end)).toMatch(/^\{\n {2}id: 'level',[\s\S]*sample: '\/levels\/27',\n\}$/);
  });

  it.each([
    ['a spread', "definePage({ ...shared, id: 'a' })", 'plain properties'],
    ['a shorthand', "definePage({ id: 'a', page })", 'plain properties'],
    ['a computed id', "definePage({ id: `a${b}` })", 'a route id is a string literal'],
    ['no id', "definePage({ path: '/a' })", 'a route object has an id'],
    ['a page that is not an import', "definePage({ id: 'a', page: loadA })", "a route's page is `() => import("],
    ['a page importing a computed path', "definePage({ id: 'a', page: () => import(name) })", "a route's page is `() => import("],
    ['an object built elsewhere', 'definePage(route)', 'definePage() takes an object literal'],
  ])('refuses %s, naming the file and line', (_case, call, message) => {
    expect(() => readRouteObjects(`import { definePage } from 'web/lib/router/page';\nexport const a = ${call};\n`, 'a.routes.ts')).toThrow(
      new RegExp(`^a\\.routes\\.ts:2: .*${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
  });
});

describe('the page chunk map (pageChunkMap)', () => {
  const byRoute = {
    level: ['/assets/level.page-a.js', '/assets/level-bits-b.js', '/assets/seo-c.js'],
    pricing: ['/assets/pricing.page-d.js', '/assets/seo-c.js'],
    faq: [],
  };

  it('names each file once, each route listing its files in order', () => {
    const map = pageChunkMap(byRoute);
    expect(map.files).toEqual(['/assets/level.page-a.js', '/assets/level-bits-b.js', '/assets/seo-c.js', '/assets/pricing.page-d.js']);
    expect(map.pages).toEqual({ level: [0, 1, 2], pricing: [3, 2], faq: [] });
  });

  it('is smaller as JSON than the lists it replaces where pages share chunks (blog, category and month share one page)', () => {
    const blog = ['/assets/blog-list.page-e.js', '/assets/post-list-f.js', '/assets/seo-c.js'];
    const shared = { ...byRoute, blog, category: blog, month: blog };
    expect(JSON.stringify(pageChunkMap(shared)).length).toBeLessThan(JSON.stringify(shared).length);
  });
});
