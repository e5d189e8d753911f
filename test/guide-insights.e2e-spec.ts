import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { CONTENT_CLI, ROOT } from './support/app-process';
import { poll } from './support/poll';
import { useInProcessSite } from './support/site';

const ADMIN = 'content@example.com';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const HELPFUL = /(\d+)% of (\d+) players found this guide helpful\./;
type Init = Omit<RequestInit, 'headers'> & { headers?: Record<string, string> };

/**
 * What players say, shown and used, over HTTP: the helpful share on a guide page from 10 answers,
 * guide views counted as pages are served (the page cache's fast path included) and written by each
 * process, /admin/guides and its API for admins only, reports marked handled, and the list of
 * wanted guides the same as `npm run content:wanted` prints.
 */
describe('guide insights over HTTP (PostgreSQL)', () => {
  // A short page-cache TTL, so a new answer shows on the cached guide page within a second; views written every 200 ms.
  const site = useInProcessSite({
    publicUrl: true,
    env: { HAS_LOGIN: 'true', ADMIN_EMAILS: ADMIN, TRUST_PROXY: 'true', MIGRATE_ON_START: 'true', PAGE_CACHE_TTL_SECONDS: '1', GUIDE_VIEWS_FLUSH_MS: '200' },
  });
  let adminToken: string;
  let playerToken: string;
  let ip = 0;
  /** Each request from a client address of its own (TRUST_PROXY): the per-client rate limits never meet. */
  const call = (path: string, init: Init = {}) =>
    fetch(`${site.url}${path}`, { redirect: 'manual', ...init, headers: { 'x-forwarded-for': `198.51.100.${(++ip % 250) + 1}`, ...init.headers } });
  const asAdmin = () => ({ authorization: `Bearer ${adminToken}` });
  const insights = async (query = '') => {
    const response = await call(`/api/v1/admin/guides${query}`, { headers: asAdmin() });
    expect(response.status).toBe(200);
    return (await response.json()) as { guides: { items: { level: number; views_total: number; open_reports: number; reports: { id: string }[] }[]; total: number }; wanted: { level: number; requests: number; last_requested_at: string }[] };
  };
  const guideRow = async (level: number) => {
    // The catalogue is small enough for one page sorted by level.
    const data = await insights('?sort=level');
    return data.guides.items.find((row) => row.level === level)!;
  };

  beforeAll(async () => {
    adminToken = await site.signedInUser(ADMIN);
    playerToken = await site.signedInUser('player@example.com');
  });

  it('answers /admin/guides to anyone but an admin as a path it does not have, and its API with 401 or 403', async () => {
    const unknown = (await (await call('/admin/nothing-here')).text()).replace(/\/admin\/nothing-here/g, 'PATH');
    for (const headers of [{}, { cookie: `token=${playerToken}` }, { authorization: `Bearer ${playerToken}` }, { cookie: 'token=not-a-session' }] as Record<string, string>[]) {
      const page = await call('/admin/guides', { headers });
      expect(page.status).toBe(404);
      // The same bytes as any unknown path of the same shape.
      expect((await page.text()).replace(/\/admin\/guides/g, 'PATH')).toBe(unknown);
      expect((await call('/admin/guides?sort=helpful&page=2', { headers })).status).toBe(404);
      const payload = await call('/admin/guides/_payload.json', { headers });
      expect(payload.status).toBe(404);
      expect(await payload.json()).toMatchObject({ routeId: 'not-found', error: { status: 404 } });
    }
    for (const [method, path] of [
      ['GET', '/api/v1/admin/guides'],
      ['GET', '/api/v1/admin/guide_reports'],
      ['PUT', '/api/v1/admin/guide_reports/00000000-0000-4000-8000-000000000000/handled'],
    ] as const) {
      expect((await call(path, { method })).status).toBe(401);
      const player = await call(path, { method, headers: { authorization: `Bearer ${playerToken}` } });
      expect(player.status).toBe(403);
      expect((await player.json()).code).toBe('AUTH.ADMIN_REQUIRED');
    }
  });

  it('shows the page to an admin, never stored, linked from the admin overview and the admin screens', async () => {
    const page = await call('/admin/guides', { headers: asAdmin() });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('<h1');
    expect(html).toContain('Most requested levels without a guide');
    expect(html).toContain('href="/levels/27"');
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    const overview = await (await call('/admin', { headers: asAdmin() })).text();
    expect(overview).toContain('href="/admin/guides"');
    // Each other screen starts with the line of links to the screens.
    expect(html).toMatch(/<nav aria-label="Admin screens"[^>]*>.*href="\/admin\/guides"/s);
    expect(await (await call('/admin/errors', { headers: asAdmin() })).text()).toMatch(/<nav aria-label="Admin screens"[^>]*>.*href="\/admin\/guides"/s);
    const payload = await call('/admin/guides/_payload.json?sort=reports&dir=asc', { headers: asAdmin() });
    expect(await payload.json()).toMatchObject({ routeId: 'admin-guides', data: { query: { sort: 'reports', dir: 'asc', page: 1 } } });
  });

  it('shows a guide page how many found it helpful from the 10th answer on, next to its version line', async () => {
    const answer = (helpful: boolean) =>
      call('/api/v1/levels/27/feedback', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(helpful ? { helpful } : { helpful, reason: 'unclear_step' }) });
    for (let i = 0; i < 9; i++) expect((await answer(i !== 4)).status).toBe(204);
    // 9 answers: no share, whenever the page was rendered (there were never 10).
    const nine = await (await call('/levels/27')).text();
    expect(nine).toContain('Checked on game version');
    expect(nine).not.toMatch(HELPFUL);
    expect((await (await call('/api/v1/levels/27')).json()).helpful).toBeUndefined();

    expect((await answer(true)).status).toBe(204);
    await poll(async () => HELPFUL.exec(await (await call('/levels/27')).text())?.[0]).toBe('90% of 10 players found this guide helpful.');
    const html = await (await call('/levels/27')).text();
    // In the same paragraph as the game version and the date it was verified.
    expect(html).toMatch(/<p[^>]*>Checked on game version [^<]*<!-- -->[^<]*90% of 10 players found this guide helpful\.<\/p>/);
    expect((await (await call('/api/v1/levels/27')).json()).helpful).toEqual({ percent: 90, votes: 10 });
  });

  it("counts a guide's views as its HTML is served, page-cache hits included, and not for HEAD, payloads, prefetches or bots", async () => {
    const hits = async () => Number(/page_cache_requests_total\{result="hit"\} (\d+)/.exec(await (await fetch(`${site.url}/metrics`)).text())?.[1] ?? 0);
    const before = await hits();
    const browser = { 'user-agent': CHROME };
    const first = await call('/levels/33', { headers: browser });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect((await call('/levels/33', { headers: browser })).status).toBe(200);
    expect((await call('/levels/33?utm_source=newsletter', { headers: browser })).status).toBe(200);
    // A reader's browser revalidating its copy: the page is shown again.
    expect((await call('/levels/33', { headers: { ...browser, 'if-none-match': etag } })).status).toBe(304);
    // Not views.
    expect((await call('/levels/33', { method: 'HEAD', headers: browser })).status).toBe(200);
    expect((await call('/levels/33/_payload.json', { headers: browser })).status).toBe(200);
    expect((await call('/levels/33', { headers: { ...browser, 'sec-purpose': 'prefetch' } })).status).toBe(200);
    expect((await call('/levels/33', { headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' } })).status).toBe(200);
    expect((await call('/levels/33/report', { headers: browser })).status).toBe(200);
    expect((await call('/levels/8', { headers: browser })).status).toBe(200);
    // Most of those came from the page cache's fast path (the first of them filled it).
    expect((await hits()) - before).toBeGreaterThanOrEqual(6);
    await poll(async () => (await guideRow(33)).views_total).toBe(4);
    // A level without a guide is no guide view.
    await expect((await site.db()).query('select count(*)::int as n from guide_views where level_number = 8')).resolves.toMatchObject({ rows: [{ n: 0 }] });
  });

  it('adds up the views of several web apps, each writing its own counts, the last at shutdown', async () => {
    const other = await site.startApp({ GUIDE_VIEWS_FLUSH_MS: '3600000' });
    for (let i = 0; i < 2; i++) expect((await fetch(`${other.url}/levels/60`, { headers: { 'user-agent': CHROME } })).status).toBe(200);
    expect((await call('/levels/60', { headers: { 'user-agent': CHROME } })).status).toBe(200);
    await poll(async () => (await guideRow(60)).views_total).toBe(1);
    // Its counts are in its memory until it stops: shutting down (on SIGTERM in a process) writes them.
    expect(await other.stop()).toBe(0);
    expect((await guideRow(60)).views_total).toBe(3);
  });

  describe('reports, marked handled', () => {
    let reportId: string;
    const handled = (id: string, init: Init = {}) =>
      call(`/api/v1/admin/guide_reports/${id}/handled`, { method: 'PUT', ...init, headers: { ...asAdmin(), ...init.headers } });

    beforeAll(async () => {
      const response = await call('/api/v1/levels/27/reports', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'wrong_step', message: 'Step <b>2</b> is left, not right' }) });
      expect(response.status).toBe(201);
      reportId = ((await response.json()) as { id: string }).id;
    });

    it('lists an open report under its guide, on the page and in the API', async () => {
      expect((await guideRow(27)).reports.map((r) => r.id)).toContain(reportId);
      const html = await (await call('/admin/guides?sort=reports', { headers: asAdmin() })).text();
      expect(html).toContain(`data-report="${reportId}"`);
      expect(html).toContain('Step &lt;b&gt;2&lt;/b&gt; is left, not right');
      const list = await call('/api/v1/admin/guide_reports?level=27', { headers: asAdmin() });
      expect(await list.json()).toMatchObject({ total: 1, items: [{ id: reportId, level_number: 27, kind: 'wrong_step', handled_at: null }] });
    });

    it('marks it handled once: a replay and 20 at once answer the same time; it leaves the open list', async () => {
      const first = await handled(reportId);
      expect(first.status).toBe(200);
      const view = (await first.json()) as { handled_at: string };
      expect(view).toMatchObject({ id: reportId, level_number: 27, handled_at: expect.any(String) });
      const again = await Promise.all(Array.from({ length: 20 }, () => handled(reportId)));
      expect(again.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(new Set(await Promise.all(again.map(async (r) => ((await r.json()) as { handled_at: string }).handled_at)))).toEqual(new Set([view.handled_at]));
      expect((await guideRow(27)).open_reports).toBe(0);
      expect(await (await call('/api/v1/admin/guide_reports?level=27&state=handled', { headers: asAdmin() })).json()).toMatchObject({ total: 1, items: [{ id: reportId, handled_at: view.handled_at }] });
    });

    it('answers hostile input with 4xx, never 5xx', async () => {
      const unknown = await handled('00000000-0000-4000-8000-000000000000');
      expect(unknown.status).toBe(404);
      expect((await unknown.json()).code).toBe('GUIDE_REPORTS.NOT_FOUND');
      for (const id of ['abc', '%00', `${reportId}%00`, "1'%20or%20'1'='1"]) {
        const response = await handled(id);
        expect({ id, status: response.status }).toEqual({ id, status: 400 });
      }
      // A path parameter past Fastify's limit (100 characters) is refused before the route.
      expect((await handled('x'.repeat(2000))).status).toBe(414);
      const form = await handled(reportId, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'handled=true' });
      expect(form.status).toBe(415);
      const huge = await handled(reportId, { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ note: 'x'.repeat(1024 * 1024) }) });
      expect(huge.status).toBeGreaterThanOrEqual(200);
      expect(huge.status).toBeLessThan(500);
      const nul = await handled(reportId, { headers: { 'content-type': 'application/json' }, body: '{"note":"\\u0000"}' });
      expect(nul.status).toBeLessThan(500);
      // The cookie alone from another site is refused (cross-site request).
      const crossSite = await call(`/api/v1/admin/guide_reports/${reportId}/handled`, { method: 'PUT', headers: { cookie: `token=${adminToken}`, origin: 'https://elsewhere.example' } });
      expect(crossSite.status).toBe(403);
      for (const query of ['?sort=bogus', '?dir=up', '?page=0', '?page=1e9', '?limit=5', '?sort=%00', `?sort=${'x'.repeat(5000)}`]) {
        const response = await call(`/api/v1/admin/guides${query}`, { headers: asAdmin() });
        expect({ query, status: response.status }).toEqual({ query, status: 400 });
      }
      for (const query of ['?state=closed', '?level=0', '?level=abc', '?page=-1', '?extra=1']) {
        const response = await call(`/api/v1/admin/guide_reports${query}`, { headers: asAdmin() });
        expect({ query, status: response.status }).toEqual({ query, status: 400 });
      }
      // The page reads an unknown sort as the default instead.
      expect((await call('/admin/guides?sort=%00&dir=sideways&page=-3', { headers: asAdmin() })).status).toBe(200);
    });
  });

  it('lists the same wanted guides as npm run content:wanted, on the same database', async () => {
    const request = (level: number) => call(`/api/v1/levels/${level}/guide_requests`, { method: 'POST' });
    for (const level of [6, 6, 6, 8, 8, 10]) expect((await request(level)).status).toBe(201);
    const { wanted } = await insights();
    expect(wanted.map((w) => [w.level, w.requests])).toEqual([
      [6, 3],
      [8, 2],
      [10, 1],
    ]);
    const { stdout } = await promisify(execFile)(process.execPath, [CONTENT_CLI, 'wanted'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: site.database!.url, DATA_DIR: site.dataDir },
    });
    const printed = stdout
      .trim()
      .split('\n')
      .map((line) => /^level (\d+)\t(\d+) request\(s\)\tlast (\S+)$/.exec(line)!.slice(1))
      .map(([level, requests, last]) => ({ level: Number(level), requests: Number(requests), last_requested_at: last }));
    expect(printed).toEqual(wanted);
  });

  it('documents its routes in the OpenAPI document', async () => {
    const document = await (await call('/api/docs/openapi.json')).json();
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/v1/admin/guides', '/api/v1/admin/guide_reports', '/api/v1/admin/guide_reports/{id}/handled']));
    const sort = document.paths['/api/v1/admin/guides'].get.parameters.find((p: { name: string }) => p.name === 'sort');
    expect(sort.schema.enum).toEqual(['worst', 'helpful', 'votes', 'reports', 'views', 'views_total', 'stuck', 'solved', 'level']);
    const detail = document.paths['/api/v1/levels/{number}'].get.responses['200'].content['application/json'].schema;
    expect(detail.properties.helpful.properties).toHaveProperty('percent');
  });
});
