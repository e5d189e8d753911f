import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { loadConfig } from 'src/config/app-config';
import type { PricingData } from 'src/contracts/billing';
import { fakePageData } from 'test/support/fake-page-data';
import { serverEntry } from './entry-server';
import type { PageRoute } from 'web/lib/router/page';
import { pageMatch } from 'test/support/page-match';
import { PAGES } from './route-table';
import { readRouteObjects } from '../scripts/route-objects.mts';

/** A path of a route: its own when it has no parameters, else its route object's `sample`. */
const samplePath = (route: PageRoute) => route.sample ?? (/[:*]/.test(route.path) ? undefined : route.path);

const pricing: PricingData = {
  packs: [{ id: 'starter', name: 'Starter', credits: 100, validity_days: 30, price_cents: 299, currency: 'usd', most_popular: true, features: [] }],
  test_mode: true,
  trial: { credits: 10, days: 14 },
  donation: { credits_per_dollar: 50, min_usd: 1, max_usd: 500, validity_days: 365 },
  refund_rule: { window_days: 14, max_used_percent: 10 },
};
// Payments on, so the account pages render rather than 404.
const data = fakePageData({ config: loadConfig({ HAS_LOGIN: 'true', HAS_PAYMENT: 'true' }).public, billing: { ...fakePageData().billing, pricing: async () => pricing } });
const assets = { scripts: ['/assets/entry-client.js'], styles: [], preloads: [] };

async function drain(stream: Readable): Promise<void> {
  for await (const _chunk of stream) void _chunk;
}

/** The names of the query parameters read (get, getAll, has) while `run` runs. */
async function parametersRead(run: () => Promise<void>): Promise<Set<string>> {
  const read = new Set<string>();
  const spies = (['get', 'getAll', 'has'] as const).map((method) => {
    const original = URLSearchParams.prototype[method] as (this: URLSearchParams, name: string) => unknown;
    return jest.spyOn(URLSearchParams.prototype, method).mockImplementation(function (this: URLSearchParams, name: string) {
      read.add(name);
      return original.call(this, name);
    } as never);
  });
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return read;
}

describe('the route table', () => {
  it('names each route once', () => {
    expect(new Set(PAGES.map((page) => page.id)).size).toBe(PAGES.length);
  });

  // The build keys each page's chunks by route id, reading the page from the route's own import() (scripts/route-objects.mts).
  const read = readdirSync('web/features').flatMap((feature) =>
    readdirSync(join('web/features', feature))
      .filter((file) => file.endsWith('.routes.ts'))
      .flatMap((file) => readRouteObjects(readFileSync(join('web/features', feature, file), 'utf8'), file)),
  );

  it('is read whole by the build: every route of the table, found in its routes file', () => {
    expect(PAGES.map((page) => page.id).filter((id) => !read.some((route) => route.id === id))).toEqual([]);
  });

  it.each(read.filter((route) => route.page).map((route) => [route.id, route.page!] as const))('%s: the page the build reads is the component the route loads', async (id, page) => {
    const module = (await import(page)) as { default: unknown };
    expect(await PAGES.find((route) => route.id === id)!.load()).toBe(module.default);
  });
});

describe('the query parameters of cached routes (PageRoute.query)', () => {
  const cached = PAGES.filter((page) => page.cache);

  it('has a sample path for every cached route', () => {
    expect(cached.filter((page) => !samplePath(page)).map((page) => page.id)).toEqual([]);
  });

  // The page cache keys and renders a cached page by its path plus these parameters only: one its
  // loader or component reads but the route does not list would be dropped before it got there.
  it.each(cached.map((page) => [page.id, samplePath(page) ?? '', page.query ?? []] as const))('%s reads no query parameter it does not list', async (_id, sample, listed) => {
    const read = await parametersRead(async () => {
      const output = await serverEntry.render({
        url: `http://localhost:3000${sample}?x=1`,
        match: pageMatch(`${sample}?x=1`, data),
        headers: {},
        waitForAll: true,
        data,
        assets,
        buildId: 'test',
        signal: new AbortController().signal,
      });
      if (output.kind === 'html') await drain(output.stream);
    });
    expect([...read].filter((name) => !listed.includes(name))).toEqual([]);
  });
});

describe('the page data sections of routes with a loader (PageRoute.sections)', () => {
  const loaded = PAGES.filter((page) => page.loader);
  // A path of each: its sample, else its own path with any parameter filled in.
  const pathOf = (route: PageRoute) => samplePath(route) ?? route.path.replace(/:\w+/g, '1');

  // A loader gets the sections its route lists and no other: one it reads but does not list is
  // undefined here, and on a server without that section's module the start would not catch it.
  it.each(loaded.map((page) => [page.id, pathOf(page)] as const))('%s reads only the sections it lists', async (_id, path) => {
    const payload = await serverEntry.payload({ url: `http://localhost:3000${path}`, match: pageMatch(path, data), headers: {}, data, assets, buildId: 'test', signal: new AbortController().signal, admin: true });
    expect(payload.errors ?? []).toEqual([]);
  });

  it('are what the server entry tells the bridge to check at start', () => {
    const sections = serverEntry.pageSections();
    expect(Object.keys(sections).sort()).toEqual(loaded.map((page) => page.id).sort());
    expect(sections.level).toEqual(['levels']);
    expect(sections.explore).toEqual(['content', 'levels']);
  });
});
