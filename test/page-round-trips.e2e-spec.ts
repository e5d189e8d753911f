import { useSite } from './support/site';

/** A Prometheus sample's value, 0 when the series does not exist yet. */
function sample(metrics: string, series: string): number {
  const line = metrics.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/**
 * The database round trips of each page load, as an operator reads them (the metric
 * page_database_round_trips, by route), with the page cache off so every request runs its loader.
 */
describe('database round trips per page load (built app, PostgreSQL, page cache off)', () => {
  const site = useSite({ env: { PAGE_CACHE: 'false', HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true' } });

  /** Loads `path` and answers its status and the round trips its load recorded under `route`. */
  async function load(path: string, route: string) {
    const series = (kind: 'sum' | 'count') => `page_database_round_trips_${kind}{route="${route}"}`;
    const before = await (await fetch(`${site.url}/metrics`)).text();
    const response = await fetch(`${site.url}${path}`);
    await response.arrayBuffer();
    const after = await (await fetch(`${site.url}/metrics`)).text();
    return {
      status: response.status,
      loads: sample(after, series('count')) - sample(before, series('count')),
      roundTrips: sample(after, series('sum')) - sample(before, series('sum')),
    };
  }

  it('loads a level page, its payload and a level without a guide in one round trip each', async () => {
    expect(await load('/levels/27', '/levels/:id')).toEqual({ status: 200, loads: 1, roundTrips: 1 });
    expect(await load('/levels/27/_payload.json', '/levels/:id/_payload.json')).toEqual({ status: 200, loads: 1, roundTrips: 1 });
    expect(await load('/levels/25', '/levels/:id')).toEqual({ status: 200, loads: 1, roundTrips: 1 });
  });

  it('loads the list, the blog and the pricing page in the fewest round trips, a filtered list too', async () => {
    expect(await load('/levels', '/levels')).toEqual({ status: 200, loads: 1, roundTrips: 1 });
    expect(await load('/levels?difficulty=hard&query=door&page=2', '/levels')).toEqual({ status: 200, loads: 1, roundTrips: 1 });
    expect(await load('/blog', '/blog')).toEqual({ status: 200, loads: 1, roundTrips: 1 });
    // The packs come from content/pricing.yaml: nothing to ask the database.
    expect(await load('/pricing', '/pricing')).toEqual({ status: 200, loads: 1, roundTrips: 0 });
  });

  it('loads the home page in two round trips: its loader asks two questions (featured guides, guide ranges), at once', async () => {
    expect(await load('/', '/')).toEqual({ status: 200, loads: 1, roundTrips: 2 });
  });

  it('asks the database nothing for a level number out of range (404)', async () => {
    expect(await load('/levels/99999', '/levels/:id')).toEqual({ status: 404, loads: 1, roundTrips: 0 });
  });
});
