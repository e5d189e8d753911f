import { randomBytes } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { freePort } from './support/app-process';
import { useInProcessSite } from './support/site';
import { until } from './support/until';

const TOKEN = `metrics-${randomBytes(16).toString('hex')}`;
const PASSWORD = 'correct horse battery';

/**
 * An address of this machine that is not loopback: a request to it comes from it, so the server
 * sees a non-loopback client without a second machine.
 */
function externalAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;
  if (!address) throw new Error('This machine has no non-loopback IPv4 address to test the loopback-only rule from');
  return address;
}

/** The value of one series of a scrape, e.g. `queue_jobs{queue="mail",state="waiting"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** The sum over every series of a family whose labels include all of `labels`. */
function total(text: string, family: string, labels: string[] = []): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${family}{`) && labels.every((label) => line.includes(label)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

const signUp = (base: string, email: string) =>
  fetch(`${base}/auth/sign_up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, password_confirmation: PASSWORD }),
  });

/** What a refused scrape must look like: the 404 page of any unknown path, no hint of metrics. */
async function expectUnknownPath(response: Response): Promise<void> {
  expect(response.status).toBe(404);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const html = await response.text();
  expect(html).toContain('Page not found: /metrics');
  expect(html).not.toContain('http_requests_total');
}

describe('metrics with METRICS_TOKEN (PostgreSQL, jobs in the web process)', () => {
  // HOST: every interface, so the test can also come in from a non-loopback address.
  const site = useInProcessSite({ env: { HAS_LOGIN: 'true', MIGRATE_ON_START: 'true', METRICS_TOKEN: TOKEN, HOST: '0.0.0.0' } });
  let external: string;
  const scrape = async (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }, base = site.url) => {
    const response = await fetch(`${base}/metrics`, { headers });
    expect(response.status).toBe(200);
    return response.text();
  };

  beforeAll(() => {
    external = externalAddress();
  });

  it('answers Prometheus text to the bearer token, from loopback or elsewhere, never cached', async () => {
    for (const base of [site.url, `http://${external}:${site.port}`]) {
      const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-store');
      const text = await response.text();
      expect(text).toContain('# TYPE http_requests_total counter');
      expect(text).toContain('# TYPE process_resident_memory_bytes gauge');
    }
  });

  it('is a 404 like any unknown path without the token, with a wrong one, or another scheme, even from loopback', async () => {
    await expectUnknownPath(await fetch(`${site.url}/metrics`));
    await expectUnknownPath(await fetch(`${site.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } }));
    await expectUnknownPath(await fetch(`${site.url}/metrics`, { headers: { authorization: `Basic ${TOKEN}` } }));
    await expectUnknownPath(await fetch(`http://${external}:${site.port}/metrics`));
  });

  it('counts HTTP requests by route pattern, never by the path', async () => {
    const unknown = `/no-such-${randomBytes(4).toString('hex')}/deeper`;
    for (const path of ['/levels/27', '/levels/28', '/levels/27/_payload.json', '/healthz', '/api/v1/levels/27', unknown]) {
      await (await fetch(`${site.url}${path}`)).arrayBuffer();
    }
    await scrape();
    const text = await scrape();
    expect(total(text, 'http_requests_total', ['route="/levels/:id"', 'method="GET"'])).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'http_requests_total{route="/levels/:id/_payload.json",method="GET",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_requests_total{route="/healthz",method="GET",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_requests_total{route="/api/v1/levels/:number",method="GET",status="200"}')).toBeGreaterThanOrEqual(1);
    // An unknown path is the route table's catch-all, not a label of its own.
    expect(sample(text, 'http_requests_total{route="*",method="GET",status="404"}')).toBeGreaterThanOrEqual(1);
    // The scrapes themselves, answered before routing.
    expect(sample(text, 'http_requests_total{route="/metrics",method="GET",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(total(text, 'http_request_duration_seconds_count', ['route="/levels/:id"'])).toBeGreaterThanOrEqual(2);
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.005",route="/levels/:id",method="GET"}');
    expect(text).not.toMatch(/route="\/levels\/2[78]/);
    expect(text).not.toContain(unknown);
  });

  it('counts page renders and page-cache misses and hits (the fast path too)', async () => {
    const before = await scrape();
    const path = '/levels/24';
    await (await fetch(`${site.url}${path}`)).text(); // rendered for the cache
    await (await fetch(`${site.url}${path}`)).text(); // the cached copy
    const after = await scrape();
    const moved = (series: string) => (sample(after, series) ?? 0) - (sample(before, series) ?? 0);
    expect(moved('page_cache_requests_total{result="miss"}')).toBe(1);
    expect(moved('page_cache_requests_total{result="hit"}')).toBe(1);
    expect(moved('page_renders_total{target="cache"}')).toBe(1);
    // Both answers are HTTP requests too, the one from the cache's fast path included.
    expect(moved('http_requests_total{route="/levels/:id",method="GET",status="200"}')).toBe(2);

    await (await fetch(`${site.url}/no/such/page`)).text();
    expect(sample(await scrape(), 'page_renders_total{target="stream"}')).toBeGreaterThanOrEqual(1);
  });

  it('times the jobs the web process runs (a sign-up mail), and shows the in-process queue', async () => {
    expect((await signUp(site.url, 'metrics-inline@example.com')).status).toBe(202);
    const text = await until('the mail job in the metrics', async () => {
      const scraped = await scrape();
      return (sample(scraped, 'jobs_completed_total{job="mail.send"}') ?? 0) >= 1 && scraped;
    });
    expect(sample(text, 'job_duration_seconds_count{job="mail.send"}')).toBeGreaterThanOrEqual(1);
    expect(text).toContain('job_duration_seconds_bucket{le="1",job="mail.send"}');
    for (const queue of ['mail', 'images']) {
      for (const state of ['waiting', 'active', 'delayed', 'failed']) {
        expect(sample(text, `queue_jobs{queue="${queue}",state="${state}"}`)).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('shows the database pool', async () => {
    const text = await scrape();
    expect(sample(text, 'db_pool_connections')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'db_pool_waiting_requests')).toBe(0);
    expect(sample(text, 'db_pool_max_connections')).toBe(10);
  });
});

describe('metrics without METRICS_TOKEN (loopback only), with Redis and a worker with WORKER_METRICS_PORT', () => {
  // The web app in this process; the worker, whose own listener is the point, is the built process (site.startWorker).
  const site = useInProcessSite({ redis: true, env: { HAS_LOGIN: 'true', MIGRATE_ON_START: 'true', HOST: '0.0.0.0' } });
  let external: string;

  beforeAll(() => {
    external = externalAddress();
  });

  it('answers loopback, and is a 404 from another address or through a proxy', async () => {
    expect((await fetch(`${site.url}/metrics`)).status).toBe(200);
    await expectUnknownPath(await fetch(`http://${external}:${site.port}/metrics`));
    // A proxy on this machine connects from loopback for every visitor: it says so in its headers.
    await expectUnknownPath(await fetch(`${site.url}/metrics`, { headers: { 'x-forwarded-for': '127.0.0.1' } }));
    // A token means nothing when none is configured.
    await expectUnknownPath(await fetch(`http://${external}:${site.port}/metrics`, { headers: { authorization: 'Bearer anything-at-all-0123' } }));
  });

  it("reads BullMQ's counts; the worker's own listener times the job it ran", async () => {
    const webScrape = async () => (await fetch(`${site.url}/metrics`)).text();
    expect((await signUp(site.url, 'metrics-worker@example.com')).status).toBe(202);
    // No worker yet: the mail job waits in Redis.
    await until('the mail job waiting in Redis', async () => sample(await webScrape(), 'queue_jobs{queue="mail",state="waiting"}') === 1);
    expect(sample(await webScrape(), 'queue_jobs{queue="images",state="failed"}')).toBe(0);

    const port = await freePort();
    const worker = await site.startWorker({ WORKER_METRICS_PORT: String(port) });
    const workerUrl = `http://127.0.0.1:${port}`;
    const text = await until('the job in the worker metrics', async () => {
      const response = await fetch(`${workerUrl}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const scraped = await response.text();
      return (sample(scraped, 'jobs_completed_total{job="mail.send"}') ?? 0) >= 1 && scraped;
    });
    expect(sample(text, 'job_duration_seconds_count{job="mail.send"}')).toBeGreaterThanOrEqual(1);
    expect(text).toContain('process_cpu_seconds_total');
    expect(sample(text, 'db_pool_max_connections')).toBe(10);
    expect(sample(text, 'queue_jobs{queue="mail",state="waiting"}')).toBe(0);
    await until('the web scrape to see the queue empty', async () => sample(await webScrape(), 'queue_jobs{queue="mail",state="waiting"}') === 0);

    // The same rule: not from another address, and nothing else is served.
    const refused = await fetch(`http://${external}:${port}/metrics`);
    expect(refused.status).toBe(404);
    expect(await refused.text()).toBe('Not Found');
    expect((await fetch(`${workerUrl}/`)).status).toBe(404);
    await worker.logged(`Metrics at http://0.0.0.0:${port}/metrics`);
  });
});
