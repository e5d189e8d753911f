import { Client } from 'pg';
import { useInProcessSite } from './support/site';
import { until } from './support/until';

const ADMIN = 'ops@example.com';
const PASSWORD = 'correct horse battery';
/** The admin pages and the queue dashboard: its page, one of its screens, its API. */
const OPS_PATHS = ['/admin', '/admin/errors', '/admin/queues', '/admin/queues/', '/admin/queues/queue/mail', '/admin/queues/api/queues'];

/** A group of server errors, as the error filter records a 5xx (error type SERVER_ERROR). */
async function insertServerError(databaseUrl: string, message: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into error_reports (fingerprint, error_type, origin_type, message, backtrace, path, count, first_seen_at, last_seen_at)
       values ($1, 'SERVER_ERROR', 0, $2, $3, '/api/v1/levels', 4, now() - interval '1 day', now())`,
      [`server-${message}`, message, `Error: ${message}\n    at LevelsService.list (levels.service.js:10:5)`],
    );
  } finally {
    await client.end();
  }
}

describe('the ops screens with Redis (no worker running)', () => {
  // PUBLIC_URL: the origin the write actions must come from.
  const site = useInProcessSite({ redis: true, publicUrl: true, env: { HAS_LOGIN: 'true', ADMIN_EMAILS: ADMIN, NODE_ENV: 'production', MIGRATE_ON_START: 'true' } });
  let adminToken: string;
  let userToken: string;

  beforeAll(async () => {
    adminToken = await site.signedInUser(ADMIN);
    userToken = await site.signedInUser('player@example.com');
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${site.url}${path}`, { redirect: 'manual', headers });
  let asAdmin: Record<string, string>;
  beforeAll(() => {
    asAdmin = { cookie: `token=${adminToken}` };
  });

  it('answers anyone but an admin exactly as it answers a path it does not have', async () => {
    const visitors: [string, Record<string, string>][] = [
      ['anonymous', {}],
      ['a signed-in user (cookie)', { cookie: `token=${userToken}` }],
      ['a signed-in user (header)', { authorization: `Bearer ${userToken}` }],
      ['an unknown token', { cookie: 'token=not-a-session' }],
    ];
    // A real file of the dashboard, so its assets are shown to be hidden too.
    const dashboard = await (await get('/admin/queues', asAdmin)).text();
    const asset = `/admin/queues/${/src="(static\/js\/[^"]+\.js)"/.exec(dashboard)![1]}`;
    expect((await get(asset, asAdmin)).status).toBe(200);

    for (const [who, headers] of visitors) {
      for (const path of [...OPS_PATHS, asset]) {
        const response = await get(path, headers);
        expect({ who, path, status: response.status }).toEqual({ who, path, status: 404 });
        expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(response.headers.get('cache-control')).toBe('no-cache');
        const html = await response.text();
        expect(html).toContain(`Page not found: ${path}`);
        expect(html).not.toMatch(/bull|Queue dashboard/i);
      }
      const payload = await get('/admin/errors/_payload.json', headers);
      expect(payload.status).toBe(404);
      expect(await payload.json()).toMatchObject({ routeId: 'not-found', error: { status: 404, message: 'Page not found: /admin/errors' } });
    }
    // The same page as any unknown path of the same shape (no per-response nonce: the same bytes).
    const unknown = (await (await get('/admin/nothing-here')).text()).replace(/\/admin\/nothing-here/g, 'PATH');
    expect((await (await get('/admin/errors')).text()).replace(/\/admin\/errors/g, 'PATH')).toBe(unknown);
  });

  it('shows the admin pages to an admin, never stored, and the same public pages as to everyone', async () => {
    const overview = await get('/admin', asAdmin);
    expect(overview.status).toBe(200);
    expect(overview.headers.get('cache-control')).toBe('no-store');
    const html = await overview.text();
    for (const link of ['href="/admin/queues"', 'href="/admin/errors"', 'href="/metrics"', 'href="/api/docs"']) expect(html).toContain(link);
    expect(html).toContain('METRICS_TOKEN');
    expect(html).toContain('<meta name="robots" content="noindex"/>');

    const bearer = await get('/admin/errors', { authorization: `Bearer ${adminToken}` });
    expect(bearer.status).toBe(200);
    const payload = await get('/admin/errors/_payload.json', asAdmin);
    expect(payload.status).toBe(200);
    expect(payload.headers.get('cache-control')).toBe('no-store');
    expect(await payload.json()).toMatchObject({ routeId: 'admin-errors', data: { scope: 'all', groups: expect.any(Array) } });

    // Page HTML elsewhere does not depend on who asks.
    const home = async (headers: Record<string, string>) => (await get('/levels/27', headers)).text();
    expect(await home(asAdmin)).toBe(await home({}));
  });

  it('lists the mail the outbox gave up on, with its last error, under "Needs attention" on /admin', async () => {
    const db = await site.db();
    await db.query(
      `insert into mail_outbox ("to", subject, text, html, created_at, attempts, unknown_outcomes, failed_at, last_error)
       values ('slow@example.com', 'Confirm your email', 't', 'h', now(), 2, 2, now(), 'MailOutcomeUnknownError MAIL.OUTCOME_UNKNOWN <- Error ETIMEDOUT')`,
    );
    const html = await (await get('/admin', asAdmin)).text();
    expect(html).toContain('Needs attention');
    expect(html).toContain('Mail given up');
    expect(html).toContain('MailOutcomeUnknownError MAIL.OUTCOME_UNKNOWN &lt;- Error ETIMEDOUT');
    // Never the address.
    expect(html).not.toContain('slow@example.com');
  });

  it('lists every queue on the dashboard, with a sign-up\'s confirmation mail waiting in the mail queue', async () => {
    const page = await get('/admin/queues', asAdmin);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.text()).toContain('<base href="/admin/queues/" />');

    const signUp = await fetch(`${site.url}/auth/sign_up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'newcomer@example.com', password: PASSWORD, password_confirmation: PASSWORD }),
    });
    expect(signUp.status).toBe(202);

    type QueuesAnswer = { queues: { name: string; counts: Record<string, number>; jobs: { id: string; name: string; data: unknown }[] }[] };
    const queues = await until('the mail job on the dashboard', async () => {
      const answer = (await (await get('/admin/queues/api/queues?activeQueue=mail&status=latest', asAdmin)).json()) as QueuesAnswer;
      return answer.queues.find((queue) => queue.name === 'mail')?.jobs.length ? answer : undefined;
    });
    expect(queues.queues.map((queue) => queue.name).sort()).toEqual(['images', 'mail']);
    const mail = queues.queues.find((queue) => queue.name === 'mail')!;
    expect(mail.counts.waiting).toBe(1);
    const [job] = mail.jobs;
    expect(job).toMatchObject({ name: 'mail.send', data: { outboxId: expect.any(String) } });

    const details = await get(`/admin/queues/api/queues/mail/${job!.id}`, asAdmin);
    expect(details.status).toBe(200);
    expect(await details.json()).toMatchObject({ job: { id: job!.id, name: 'mail.send' }, status: 'waiting' });
  });

  it('takes its write actions only from the site itself, and only from an admin', async () => {
    const clean = '/admin/queues/api/queues/mail/clean/failed';
    const put = (headers: Record<string, string>) => fetch(`${site.url}${clean}`, { method: 'PUT', headers });

    const crossSite = await put({ ...asAdmin, origin: 'https://elsewhere.example' });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toEqual({ errors: ['This request must come from this site.'], code: 'AUTH.CROSS_SITE' });
    expect((await put(asAdmin)).status).toBe(403);

    // Not an admin: the answer of a write to a path that does not exist, origin or not.
    const unknown = await fetch(`${site.url}/no/such/api`, { method: 'PUT', headers: { origin: site.url } });
    expect(unknown.status).toBe(404);
    const others: Record<string, string>[] = [
      { origin: site.url },
      { cookie: `token=${userToken}`, origin: site.url },
      { cookie: `token=${userToken}`, origin: 'https://elsewhere.example' },
    ];
    for (const headers of others) {
      const refused = await put(headers);
      expect(refused.status).toBe(404);
      expect(await refused.json()).toEqual({ errors: [`Cannot PUT ${clean}`], code: 'HTTP.404' });
    }
    const add = await fetch(`${site.url}/admin/queues/api/queues/mail/add`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://elsewhere.example' },
      body: JSON.stringify({ name: 'mail.send', data: {} }),
    });
    expect(add.status).toBe(404);

    expect((await put({ ...asAdmin, origin: site.url })).status).toBe(200);
    // A bearer token is no ambient credential: no origin needed.
    expect((await put({ authorization: `Bearer ${adminToken}` })).status).toBe(200);
  });

  it('runs under the site\'s CSP, relaxed for inline styles on its own paths only, with no third-party fonts', async () => {
    const dashboard = await get('/admin/queues', asAdmin);
    const csp = dashboard.headers.get('content-security-policy')!;
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(csp).not.toContain('nonce-');
    expect(await dashboard.text()).not.toContain('fonts.googleapis.com');

    const home = (await get('/levels', asAdmin)).headers.get('content-security-policy')!;
    expect(home).toContain("style-src 'self';");
    const hidden = (await get('/admin/queues')).headers.get('content-security-policy')!;
    expect(hidden).toContain("style-src 'self';");
  });

  it('shows client and server error groups, escaped, newest first, filtered by origin', async () => {
    const report = (message: string, error_type = 'CLIENT_ERROR') =>
      fetch(`${site.url}/api/v1/log_client_error`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ error: { error_type, origin_type: 1, message, backtrace: `Error: ${message}\n    at render (entry-client.js:1:2)`, path: '/levels/27', build_id: 'build-42' } }),
      });
    expect((await report('<script>alert("owned")</script> boom')).status).toBe(204);
    await insertServerError(site.database!.url, 'the database went away');
    expect((await report('later in the browser', 'API_ERROR')).status).toBe(204);

    const html = await (await get('/admin/errors', asAdmin)).text();
    // The page's text, without its hydration data (JSON, escaped differently).
    const body = html.replace(/<script type="application\/json" id="__page">[\s\S]*?<\/script>/, '');
    expect(body).toContain('&lt;script&gt;alert(&quot;owned&quot;)&lt;/script&gt; boom');
    expect(body).not.toContain('<script>alert(');
    expect(body).toContain('build-42');
    expect(body).toContain('at render (entry-client.js:1:2)');
    // Most recently seen first.
    expect(body.indexOf('later in the browser')).toBeLessThan(body.indexOf('the database went away'));
    expect(body.indexOf('the database went away')).toBeLessThan(body.indexOf('alert(&quot;owned'));

    const server = await (await get('/admin/errors?scope=server', asAdmin)).text();
    expect(server).toContain('the database went away');
    expect(server).not.toContain('later in the browser');
    const client = await (await get('/admin/errors?scope=client', asAdmin)).text();
    expect(client).toContain('later in the browser');
    expect(client).not.toContain('the database went away');
  });
});

describe('the ops screens without Redis (jobs run in the web process)', () => {
  const site = useInProcessSite({ env: { HAS_LOGIN: 'true', ADMIN_EMAILS: ADMIN, MIGRATE_ON_START: 'true' } });
  let adminToken: string;

  beforeAll(async () => {
    adminToken = await site.signedInUser(ADMIN);
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${site.url}${path}`, { redirect: 'manual', headers });
  const asAdmin = () => ({ cookie: `token=${adminToken}` });

  it('shows the in-process queues and their counts instead of a dashboard', async () => {
    const signUp = await fetch(`${site.url}/auth/sign_up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'newcomer@example.com', password: PASSWORD, password_confirmation: PASSWORD }),
    });
    expect(signUp.status).toBe(202);

    type Counts = { name: string; waiting: number; active: number; delayed: number; completed: number; failed: number };
    const queues = await until('the confirmation mail sent by the web process', async () => {
      const payload = (await (await get('/admin/queues/_payload.json', asAdmin())).json()) as { data: { mode: string; queues: Counts[] } };
      return payload.data.queues.find((queue) => queue.name === 'mail')!.completed >= 1 ? payload.data : undefined;
    });
    expect(queues.mode).toBe('inline');
    expect(queues.queues.map((queue) => queue.name).sort()).toEqual(['images', 'mail']);

    const page = await get('/admin/queues', asAdmin());
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('Jobs run in this web process');
    expect(html).toMatch(/<th scope="row"[^>]*>mail<\/th>/);
    expect(html).toContain('completed');

    // No dashboard behind it, and nothing for anyone else.
    expect((await get('/admin/queues/api/queues', asAdmin())).status).toBe(404);
    const anonymous = await get('/admin/queues');
    expect(anonymous.status).toBe(404);
    expect(await anonymous.text()).toContain('Page not found: /admin/queues');
    expect((await get('/admin')).status).toBe(404);
  });
});
