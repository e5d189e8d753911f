import { loadConfig } from 'src/config/app-config';
import type { LevelListData, LevelPageData, LevelSummary } from 'src/contracts/levels';
import type { PageData } from 'src/contracts/page-data';

/** The section of a module this fake does not know: every call answers null. */
const unknownSection = new Proxy({}, { get: (_section, name) => (name === 'then' ? undefined : async () => null) });

/**
 * A section name read from the page data: a camelCase word (`stats`), not a probe of the object
 * itself (`then` when awaited, `constructor`, symbols).
 */
const isSectionName = (name: string | symbol): name is string => typeof name === 'string' && /^[a-z][A-Za-z]*$/.test(name) && name !== 'then' && name !== 'constructor';

/**
 * A PageData with fixed answers, for rendering tests that do not need a database. The real one
 * (the modules' sections in src/modules/<name>/adapters/pages, composed by src/ssr/site-page-data.ts)
 * is exercised by the end-to-end tests.
 */
export function fakePageData(overrides: Partial<PageData> = {}): PageData {
  const known = fixedPageData(overrides);
  // A module added since has a section this file does not list: it answers null, so the route-table
  // spec runs its loader without this shared file being edited (a spec rendering its page passes its own).
  return new Proxy(known, { get: (data, name, receiver) => (name in data || !isSectionName(name) ? Reflect.get(data, name, receiver) : unknownSection) }) as PageData;
}

function fixedPageData(overrides: Partial<PageData>): Partial<PageData> & Pick<PageData, 'config' | 'redirects'> {
  const level27: LevelSummary = { number: 27, title: 'The Locked Observatory', difficulty: 'medium', referenceSeconds: 210 };
  const list: LevelListData = {
    query: { page: 1, query: undefined },
    levels: [level27],
    total: 1,
    page: 1,
    pageCount: 1,
    counts: { easy: 0, medium: 1, hard: 0, all: 1 },
  };
  return {
    config: loadConfig({ NODE_ENV: 'test' }).public,
    redirects: new Map(),
    levels: {
      page: async (number): Promise<LevelPageData> => ({ kind: 'not-covered', number, next: level27 }),
      list: async () => list,
      hardest: async () => ({ levels: [], total: 0 }),
      featured: async () => [level27],
      guideRanges: async () => '1-5 27 30',
      home: async () => ({ featured: [level27], guides: '1-5 27 30' }),
    },
    content: {
      page: async () => null,
      post: async () => null,
      posts: async (query) => ({ query, posts: [], total: 0, page: 1, pageCount: 1 }),
      media: async () => [],
      explore: async () => ({ tags: [], months: [], tagCount: 0, monthCount: 0 }),
    },
    billing: { pricing: async () => null, adminOrders: async () => null, adminOrder: async () => null, refusedEvents: async () => null },
    ops: { errors: async () => [], queues: async () => ({ mode: 'inline', queues: [] }), attention: async () => ({ mail_given_up: [], redis_problem: null }) },
    search: {
      // One guide whose snippet marks the query: enough for the page to render a group.
      results: async (query) => ({
        query,
        searched: query,
        corrections: [],
        unknown: [],
        match: 'all',
        groups: query
          ? [{ kind: 'levels', total: 1, hits: [{ url: '/levels/27', number: 27, difficulty: 'medium', title: [{ text: level27.title }], snippet: [{ text: 'Look through the ' }, { text: query, mark: true }] }] }]
          : [],
      }),
    },
    guideReports: { page: async (number) => (number === 27 ? { number, title: level27.title, has_video: true } : null) },
    guideInsights: {
      overview: async (query) => ({ query, guides: { items: [], total: 0, page: query.page, pages: 1 }, wanted: [], recent_days: 30, min_votes: 10 }),
    },
    ...overrides,
  };
}
