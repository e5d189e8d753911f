import { isMonth, isPageSlug, isPostSlug, isTag } from 'src/contracts/content';
import type { GuideReportPageData } from 'src/contracts/guide-reports';
import { parseLevelSearch } from 'src/contracts/level-number';
import { parseLevelId, type LevelPageData } from 'src/contracts/levels';
import { levelListQuerySchema } from 'src/contracts/levels.schema';
import { filterText, searchText } from 'src/contracts/search-text';
import { isErrorScope, type AdminErrorsData, type AdminOverviewData } from 'src/contracts/ops';
import { ORDER_STATUSES, type AdminOrderDetail, type OrderStatus } from 'src/contracts/billing';
import type { AdminOrdersData } from 'web/routes/admin-orders.pages';
import { invalidPage, notFound, unknownRoute } from 'web/lib/not-found';
import { PageRedirect, type Loader, type LoaderArgs } from 'web/lib/router/page';
import { AUTH_PAGES, PAYMENT_ACCOUNT_PAGES } from 'web/route-table';
import type { BlogListData } from 'web/routes/blog.page';
import type { ExplorePageData } from 'web/routes/info.pages';
import type { HomePageData } from 'web/routes/home.page';
import type { LevelsPageData } from 'web/routes/levels.page';

/**
 * Page loaders, by route id. They run on the server only (entry-server), so what they import
 * (validation schemas, say) never reaches the browser bundle. A cached page's loader sees only the
 * query parameters listed in its route's `query` (web/route-table.tsx): list one before reading it.
 */
export const LOADERS: Record<string, Loader> = {
  home: async ({ data }): Promise<HomePageData> => ({ featured: await data.levels.featured() }),
  levels: loadLevelsPage,
  level: ({ params, url, data }): Promise<LevelPageData> => {
    const number = parseLevelId(params.id ?? '', data.config.levels.searchMax);
    if (number === null) return invalidPage(url.pathname + url.search);
    return data.levels.page(number);
  },
  // The report form of a guide: a 404 for a level without one, like the API.
  'guide-report': async ({ params, url, data }): Promise<GuideReportPageData> => {
    const number = parseLevelId(params.id ?? '', data.config.levels.searchMax);
    const guide = number === null ? null : await data.guideReports.page(number);
    return guide ?? invalidPage(url.pathname + url.search);
  },
  blog: async ({ url, data }): Promise<BlogListData> => {
    const query = searchText(url.searchParams.get('query')?.trim().slice(0, 100));
    return { list: await data.content.posts({ query, page: pageNumber(url) }), scope: { kind: 'all' } };
  },
  post: async ({ params, url, data }) => {
    const slug = params.slug ?? '';
    const post = isPostSlug(slug) ? await data.content.post(slug) : null;
    return post ?? invalidPage(url.pathname + url.search);
  },
  category: async ({ params, url, data }): Promise<BlogListData> => {
    const tag = params.tag ?? '';
    if (!isTag(tag)) return invalidPage(url.pathname + url.search);
    const list = await data.content.posts({ tag, page: pageNumber(url) });
    // A tag no post carries is not a category: the spec's 404 for a page that fails validation.
    if (list.total === 0) return invalidPage(url.pathname + url.search);
    return { list, scope: { kind: 'tag', tag } };
  },
  month: async ({ params, url, data }): Promise<BlogListData> => {
    const month = params.month ?? '';
    if (!isMonth(month)) return invalidPage(url.pathname + url.search);
    return { list: await data.content.posts({ month, page: pageNumber(url) }), scope: { kind: 'month', month } };
  },
  // Old post addresses: /detail/{slug} moved to /blog/{slug}.
  detail: async ({ params, url, data }) => {
    const slug = params.slug ?? '';
    if (isPostSlug(slug) && (await data.content.post(slug))) throw new PageRedirect(`/blog/${slug}`, 301);
    return invalidPage(url.pathname + url.search);
  },
  page: async ({ params, url, data }) => {
    const slug = params.slug ?? '';
    const page = isPageSlug(slug) ? await data.content.page(slug) : null;
    return page ?? notFound(`Page not found: ${url.pathname}`);
  },
  media: ({ data }) => data.content.media(),
  explore: async ({ data }): Promise<ExplorePageData> => {
    const [index, featured] = await Promise.all([data.content.explore(), data.levels.featured()]);
    return { ...index, featured };
  },
  'not-found': ({ url }) => unknownRoute(url.pathname),
  // With accounts off the resolver sends every path containing /auth home before any loader runs.
  ...Object.fromEntries(AUTH_PAGES.map((id) => [id, () => null])),
  // The packs, trial and donation terms; null (so 404) while payments are off.
  pricing: async ({ url, data }) => (await data.billing.pricing()) ?? unknownRoute(url.pathname),
  ...Object.fromEntries(PAYMENT_ACCOUNT_PAGES.map((id) => [id, paymentAccountPage])),
  'image-tool': paymentAccountPage,
  // The local test checkout exists only while no Stripe key is set (test mode).
  'payment-test-checkout': async ({ url, data }) => ((await data.billing.pricing())?.test_mode ? null : unknownRoute(url.pathname)),
  // The ops screens; they resolve only for admins (route access 'admin').
  admin: async ({ data }): Promise<AdminOverviewData> => ({ queueMode: (await data.ops.queues()).mode, payments: data.config.settings.has_payment }),
  'admin-errors': async ({ url, data }): Promise<AdminErrorsData> => {
    const asked = url.searchParams.get('scope') ?? 'all';
    const scope = isErrorScope(asked) ? asked : 'all';
    return { scope, groups: await data.ops.errors(scope) };
  },
  'admin-queues': ({ data }) => data.ops.queues(),
  'admin-orders': async ({ url, data }): Promise<AdminOrdersData> => {
    const search = url.searchParams;
    const status = search.get('status') ?? '';
    const filter = {
      email: filterText(search.get('email'), 256),
      number: filterText(search.get('number'), 20),
      status: (ORDER_STATUSES as readonly string[]).includes(status) ? (status as OrderStatus) : undefined,
    };
    const [orders, refused] = await Promise.all([data.billing.adminOrders(filter, pageNumber(url)), data.billing.refusedEvents(1)]);
    return orders ? { filter, orders, refused: refused?.items ?? [] } : unknownRoute(url.pathname);
  },
  'admin-order': async ({ params, url, data }): Promise<AdminOrderDetail> => (await data.billing.adminOrder(params.id ?? '')) ?? unknownRoute(url.pathname),
};

/** Billing, usage, the payment pages and the image tool: 404 while payments are off; their data loads in the browser. */
function paymentAccountPage({ url, data }: LoaderArgs): null {
  if (!data.config.settings.has_payment) unknownRoute(url.pathname);
  return null;
}

/** ?page=N, 1 when absent or not a sensible number. */
function pageNumber(url: URL): number {
  const page = Number(url.searchParams.get('page') ?? 1);
  return Number.isInteger(page) && page >= 1 && page <= 1000 ? page : 1;
}

async function loadLevelsPage({ url, data }: LoaderArgs): Promise<LevelsPageData> {
  const search = url.searchParams;
  const max = data.config.levels.searchMax;
  // The header's search form without JavaScript: GET /levels?level=27.
  const level = search.get('level');
  if (level !== null) {
    const result = parseLevelSearch(level, max);
    if (result.ok) throw new PageRedirect(`/levels/${result.level}`);
    return { list: await data.levels.list({ page: 1, query: undefined }), message: result.message };
  }
  const parsed = levelListQuerySchema.safeParse({
    difficulty: search.get('difficulty') || undefined,
    query: search.get('query') ?? undefined,
    page: search.get('page') ?? undefined,
  });
  if (!parsed.success) return invalidPage(url.pathname + url.search);
  // A number in the list's search box jumps straight to that level.
  if (parsed.data.query && /^\d+$/.test(parsed.data.query)) {
    const result = parseLevelSearch(parsed.data.query, max);
    if (result.ok) throw new PageRedirect(`/levels/${result.level}`);
    return { list: await data.levels.list({ ...parsed.data, query: undefined }), message: result.message };
  }
  return { list: await data.levels.list(parsed.data) };
}

