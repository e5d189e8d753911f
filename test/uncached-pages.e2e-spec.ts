import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { useInProcessSite } from './support/site';

/** A Prometheus sample's value, 0 when the series does not exist yet. */
function sample(metrics: string, series: string): number {
  const line = metrics.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** One GET whose body is read as it came over the wire, undecoded; `head` is the status line's and headers' bytes. */
function raw(port: number, path: string, acceptEncoding: string): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer; head: number }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers: { 'accept-encoding': acceptEncoding, connection: 'close' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let head = `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n\r\n`.length;
      for (let i = 0; i < res.rawHeaders.length; i += 2) head += `${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}\r\n`.length;
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks), head }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/**
 * Pages rendered on every request (the page cache off, so every request runs its loader): the
 * database round trips of each load, as an operator reads them (the metric
 * page_database_round_trips, by route), and how the page is compressed.
 */
describe('pages rendered per request (PostgreSQL, page cache off)', () => {
  const site = useInProcessSite({ env: { PAGE_CACHE: 'false', HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true' } });

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

  it('loads the home page in one round trip: the featured guides and the guide ranges in one statement', async () => {
    expect(await load('/', '/')).toEqual({ status: 200, loads: 1, roundTrips: 1 });
  });

  it('asks the database nothing for a level number out of range (404)', async () => {
    expect(await load('/levels/99999', '/levels/:id')).toEqual({ status: 404, loads: 1, roundTrips: 0 });
  });

  // Issue 35's budgets for a guide, in bytes: they depend on the content and the settings only, never on the machine.
  it('sends a guide within its budgets: 7.0 KB per response to a browser (status line, headers, body; what Next.js sends), 31 KB of HTML, 3 KB of hydration data', async () => {
    const browser = await raw(site.port, '/levels/27', 'br, gzip');
    expect(browser.head + browser.body.length).toBeLessThanOrEqual(7_000);
    const html = brotliDecompressSync(browser.body).toString();
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(31 * 1024);
    const hydration = /<script type="application\/json" id="__page">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(Buffer.byteLength(hydration)).toBeLessThanOrEqual(3 * 1024);
  });

  it('answers a browser brotli, whole with its length, a client that takes gzip only gzip, and identity to the rest', async () => {
    const browser = await raw(site.port, '/levels/27', 'gzip, deflate, br, zstd');
    expect(browser.headers).toMatchObject({ 'content-encoding': 'br', vary: 'accept-encoding', 'content-length': String(browser.body.length) });
    const html = brotliDecompressSync(browser.body).toString();
    expect(html).toContain('The Locked Observatory');
    // A third of the page or less on the wire.
    expect(browser.body.length).toBeLessThan(html.length / 3);
    const gzipOnly = await raw(site.port, '/levels/27', 'gzip');
    expect(gzipOnly.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipOnly.body).toString()).toBe(html);
    expect(gzipOnly.body.length).toBeGreaterThan(browser.body.length);
    const plain = await raw(site.port, '/levels/27', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(html);
  });
});
