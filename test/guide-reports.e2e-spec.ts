import { join } from 'node:path';
import { useInProcessSite } from './support/site';

const CONTENT_DIR = join(__dirname, 'fixtures/content');
const ADMINS = ['ann@example.com', 'bob@example.com'];
const WORDS = 'Step 2 says <b>four</b> & the dial only goes to three.';

/**
 * "Something wrong with this guide?" over HTTP: the app takes the report and mails its notification
 * to the admins through SMTP (a job: here it runs in the app, no Redis; the queue, the worker and
 * their retries are jobs.int-spec's and worker.e2e-spec's); the report page is server-rendered.
 */
describe('guide problem reports over HTTP (PostgreSQL, SMTP)', () => {
  const site = useInProcessSite({
    mail: true,
    // Every report mailed as it comes: the digest's bound has its own tests (service spec, int spec).
    env: { ADMIN_EMAILS: ADMINS.join(','), PUBLIC_URL: 'https://guides.example', MIGRATE_ON_START: 'true', CONTENT_DIR, TRUST_PROXY: 'true', GUIDE_REPORT_DIGEST_MINUTES: '0' },
  });
  let ip = 0;
  /** Each call comes from a client address of its own (TRUST_PROXY), unless one is given: the rate limit is per client. */
  const post = (level: string, body: unknown, init: { ip?: string; headers?: Record<string, string>; raw?: string } = {}) =>
    fetch(`${site.url}/api/v1/levels/${level}/reports`, {
      method: 'POST',
      headers: { 'x-forwarded-for': init.ip ?? `203.0.113.${++ip}`, 'content-type': 'application/json', ...init.headers },
      body: init.raw ?? JSON.stringify(body),
    });
  const get = (path: string) => fetch(`${site.url}${path}`, { redirect: 'manual' });

  describe('POST /api/v1/levels/{n}/reports', () => {
    it('takes a report and answers 201 with its id only, and mails each admin', async () => {
      const response = await post('10', { kind: 'wrong_step', message: `  ${WORDS}  ` });
      expect(response.status).toBe(201);
      const body = await response.json();
      expect(Object.keys(body)).toEqual(['id']);
      expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
      for (const admin of ADMINS) {
        const mail = await site.mail!.waitFor(admin, /^Guide problem reported: level 10 \(a step is wrong\)$/);
        expect(mail.raw).toContain(WORDS);
        expect(mail.raw).toContain('Step 2 says &lt;b&gt;four&lt;/b&gt; &amp; the dial');
        expect(mail.raw).toContain('https://guides.example/levels/10');
        expect(mail.raw).toContain(body.id);
      }
      expect(site.mail!.delivered.filter((m) => m.raw.includes(body.id))).toHaveLength(ADMINS.length);
    });

    it('takes a report without a message', async () => {
      const response = await post('11', { kind: 'other' });
      expect(response.status).toBe(201);
      await site.mail!.waitFor(ADMINS[0]!, /^Guide problem reported: level 11 \(something else\)$/);
    });

    it('answers 404 for a level without a guide, and 400 for a bad number or body', async () => {
      const missing = await post('15', { kind: 'other' });
      expect(missing.status).toBe(404);
      expect((await missing.json()).code).toBe('GUIDE_REPORTS.NO_GUIDE');
      for (const level of ['abc', '0', '636', '027']) expect((await post(level, { kind: 'other' })).status).toBe(400);
      const cases: [unknown, string][] = [
        [{ kind: 'spam' }, 'kind is one of wrong_step, video_mismatch, other'],
        [{}, 'kind is one of'],
        [{ kind: 'other', message: 'x'.repeat(1001) }, 'at most 1000 characters'],
        [{ kind: 'other', email: 'player@example.com' }, 'email'],
      ];
      for (const [body, message] of cases) {
        const response = await post('10', body);
        expect(response.status).toBe(400);
        expect((await response.json()).errors.join(' ')).toContain(message);
      }
    });

    it('takes JSON only: a form post is refused', async () => {
      // Nest's Fastify adapter parses urlencoded bodies, so a valid-looking form would pass the schema.
      const form = await post('10', undefined, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, raw: 'kind=other' });
      expect(form.status).toBe(415);
      expect((await form.json()).code).toBe('REQUEST.JSON_ONLY');
      const text = await post('10', undefined, { headers: { 'content-type': 'text/plain' }, raw: JSON.stringify({ kind: 'other' }) });
      expect(text.status).toBe(415);
      const multipart = new FormData();
      multipart.set('kind', 'other');
      const parts = await fetch(`${site.url}/api/v1/levels/10/reports`, { method: 'POST', headers: { 'x-forwarded-for': '203.0.113.250' }, body: multipart });
      expect(parts.status).toBe(415);
      expect((await post('10', { kind: 'other' }, { headers: { 'content-type': 'application/json; charset=utf-8' } })).status).toBe(201);
    });

    it('rate limits each client to 5 reports in 10 minutes, with 429 and Retry-After', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await post('3', { kind: 'other' }, { ip: '198.51.100.7' })).status);
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
      const limited = await post('3', { kind: 'other' }, { ip: '198.51.100.7' });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await post('3', { kind: 'other' }, { ip: '198.51.100.8' })).status).toBe(201);
    });

    it('is in the OpenAPI document with its request and response schemas', async () => {
      const document = await (await get('/api/docs/openapi.json')).json();
      const operation = document.paths['/api/v1/levels/{number}/reports'].post;
      const request = operation.requestBody.content['application/json'].schema;
      expect(request.properties.kind.enum).toEqual(['wrong_step', 'video_mismatch', 'other']);
      expect(request.properties.message.maxLength).toBe(1000);
      expect(request.required).toEqual(['kind']);
      expect(operation.responses['201'].content['application/json'].schema.required).toEqual(['id']);
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['400', '404', '429']));
    });
  });

  describe('pages', () => {
    it('links the report page from a guide', async () => {
      const html = await (await get('/levels/10')).text();
      expect(html).toContain('href="/levels/10/report"');
      expect(html).toContain('Something wrong with this guide?');
    });

    it('renders the form on the server, to be sent once the page runs (the API takes JSON)', async () => {
      const response = await get('/levels/10/report');
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain('<title>Report a problem: Level 10 guide - Mystery Doors Guide</title>');
      expect(html).toContain('<meta name="robots" content="noindex"/>');
      expect(html).toContain('Level 10: The Telescope Room');
      for (const kind of ['wrong_step', 'video_mismatch', 'other']) expect(html).toContain(`value="${kind}"`);
      expect(html).toMatch(/<textarea[^>]*maxLength="1000"/);
      expect(html).toMatch(/<button type="submit" disabled=""/);
      expect(html).toContain('Sending a report needs JavaScript');
      // The same HTML for everyone, so it is cached like the guide.
      expect(response.headers.get('etag')).toBeTruthy();
      const payload = await (await get('/levels/10/report/_payload.json')).json();
      expect(payload.data).toEqual({ number: 10, title: 'The Telescope Room', has_video: true });
      // Level 11's guide has no video: nothing to report about one.
      const withoutVideo = await (await get('/levels/11/report')).text();
      for (const kind of ['wrong_step', 'other']) expect(withoutVideo).toContain(`value="${kind}"`);
      expect(withoutVideo).not.toContain('video_mismatch');
    });

    it.each(['/levels/15/report', '/levels/abc/report', '/levels/0/report'])('answers %s with the 404 page', async (path) => {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain(`Page Not Found: ${path}`);
    });
  });
});
