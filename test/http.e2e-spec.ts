import { createHash } from 'node:crypto';
import { startInProcessSite, useInProcessSite } from './support/site';
import { until } from './support/until';

const ADMIN = 'ops@example.com';
let adminToken: string;
const json = { 'content-type': 'application/json' };
const report = (message: string) => ({
  error: { error_type: 'API_ERROR', origin_type: 1, message, backtrace: 'Error\n    at load (entry.js:1:1)', user_email: null },
});

// Shutting down on SIGTERM (test/shutdown.e2e-spec.ts) and refusing a bad setting (test/startup.e2e-spec.ts) are about the process.
describe('the web app on PostgreSQL and Redis', () => {
  const site = useInProcessSite({ redis: true, env: { HAS_LOGIN: 'true', ADMIN_EMAILS: ADMIN, NODE_ENV: 'production', MIGRATE_ON_START: 'true' } });

  beforeAll(async () => {
    adminToken = await site.signedInUser(ADMIN);
  });

  it('serves the home page with security headers; the only inline script is allowed by its hash', async () => {
    const response = await fetch(`${site.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const csp = response.headers.get('content-security-policy')!;
    // The theme script, the remembered-hints script (level pages) and the progress scripts (a guide's, a list's), each by its hash.
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*' 'sha256-[A-Za-z0-9+/]+=*' 'sha256-[A-Za-z0-9+/]+=*' 'sha256-[A-Za-z0-9+/]+=*';/);
    expect(csp).not.toContain('nonce-');
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).toContain("object-src 'none'");
    // Fonts and fetches fall back to default-src 'self' (no data: fonts), said once rather than repeated.
    expect(csp).toMatch(/^default-src 'self';/);
    expect(csp).not.toMatch(/font-src|connect-src/);
    // Headers only browsers that cannot run the site read (IE 8, the retired XSS auditors, Flash) are not sent.
    for (const legacy of ['x-download-options', 'x-xss-protection', 'x-permitted-cross-domain-policies']) expect(response.headers.get(legacy)).toBeNull();

    const html = await response.text();
    expect(html.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
    expect(html).toContain('Stuck on a level?');
    expect(html).toContain('unofficial, fan-made guide');
    // Every inline script that runs is allowed by its hash in the CSP (JSON data blocks do not run).
    const inlineScripts = [...html.matchAll(/<script(?![^>]*\b(?:src=|type="application\/(?:ld\+)?json"))[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    // The theme script, and "Continue at level N" (drawn from this browser's progress).
    expect(inlineScripts).toHaveLength(2);
    for (const script of inlineScripts) expect(csp).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    // The loader data is embedded once, for hydration, as data.
    expect(html.match(/<script type="application\/json" id="__page">/g)).toHaveLength(1);
  });

  it('renders pages that are not cached on each request, sent whole with their length when React finished them in the shell', async () => {
    const response = await fetch(`${site.url}/a/page/that/is/not/cached`, { headers: { 'accept-encoding': 'identity' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('transfer-encoding')).toBeNull();
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(1000);
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-/);
    expect(await response.text()).toContain('</html>');
  });

  it('gives every request an id, keeping a well-formed one from the caller', async () => {
    const kept = await fetch(`${site.url}/healthz`, { headers: { 'x-request-id': 'lb-1234abcd' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-1234abcd');
    const replaced = await fetch(`${site.url}/healthz`, { headers: { 'x-request-id': 'no spaces <allowed>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers health and readiness', async () => {
    expect(await (await fetch(`${site.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${site.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'up', migrations: 'up to date', redis: 'up', workers: 'none seen for 60 s' },
    });
  });

  it('renders the 404 page for an unknown path, escaping the path', async () => {
    const response = await fetch(`${site.url}/no/such/page`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('This page could not be found');
    expect(html).toContain('Page not found: /no/such/page');
    expect(html).toContain('Back Home');

    const hostile = await fetch(`${site.url}/%3Cscript%3Ealert(1)%3C%2Fscript%3E`);
    expect(hostile.status).toBe(404);
    expect(await hostile.text()).not.toContain('<script>alert(1)');
  });

  it('serves each page payload as JSON with an ETag for client-side navigation', async () => {
    const home = await fetch(`${site.url}/_payload.json`);
    expect(home.status).toBe(200);
    expect(await home.json()).toEqual({ routeId: 'home', locale: 'en', params: {}, status: 200, data: { featured: expect.any(Array), guides: expect.stringMatching(/^1-5 7 9 /) } });

    const missing = await fetch(`${site.url}/no/such/_payload.json`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      routeId: 'not-found',
      locale: 'en',
      params: {},
      status: 404,
      error: { status: 404, message: 'Page not found: /no/such' },
    });

    const etag = missing.headers.get('etag')!;
    const again = await fetch(`${site.url}/no/such/_payload.json`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it("gives a payload the page's Referrer-Policy, rendered and from the cache", async () => {
    const page = await fetch(`${site.url}/levels`);
    const policy = page.headers.get('referrer-policy');
    expect(policy).toBe('no-referrer');
    for (let i = 0; i < 2; i++) {
      const payload = await fetch(`${site.url}/levels/_payload.json`);
      expect(payload.status).toBe(200);
      expect(payload.headers.get('referrer-policy')).toBe(policy);
      expect(payload.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('answers unknown API routes with JSON, not a page', async () => {
    const response = await fetch(`${site.url}/api/v1/nothing-here`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect((await response.json()).code).toBe('REQUEST.NOT_FOUND');
  });

  it('compresses pages and caches hashed assets forever', async () => {
    // Brotli from the first answer (the entry's brotli 5, brotli 11 once the page is asked again).
    const page = await fetch(`${site.url}/`, { headers: { 'accept-encoding': 'br' } });
    expect(page.headers.get('content-encoding')).toBe('br');
    const html = await page.text();
    const asset = /<link rel="stylesheet" href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const css = await fetch(`${site.url}${asset}`);
    expect(css.status).toBe(200);
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // A stylesheet or a script is never a document: only the headers such a file is read with, which
    // keeps a level page's stylesheet within TCP's first round trip (src/ssr/asset-headers.ts).
    const script = /<script type="module" src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const worker = await fetch(`${site.url}/sw.js`);
    for (const subresource of [css, await fetch(`${site.url}${script}`, { headers: { 'accept-encoding': 'br' } })]) {
      expect(subresource.headers.get('x-content-type-options')).toBe('nosniff');
      expect(subresource.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(subresource.headers.get('referrer-policy')).toBe('no-referrer');
      for (const documentOnly of ['content-security-policy', 'cross-origin-opener-policy', 'origin-agent-cluster', 'x-frame-options', 'x-dns-prefetch-control']) {
        expect(subresource.headers.get(documentOnly)).toBeNull();
      }
      // Hashed and immutable: never revalidated, so no validators either.
      expect(subresource.headers.get('etag')).toBeNull();
      expect(subresource.headers.get('last-modified')).toBeNull();
    }
    // The service worker is a worker: it runs under the CSP of its own response, and is revalidated.
    expect(worker.headers.get('content-security-policy')).toMatch(/^default-src 'self';/);
    expect(worker.headers.get('etag')).not.toBeNull();
    await worker.arrayBuffer();
    const build = await fetch(`${site.url}/builds/latest.json`);
    expect(build.headers.get('cache-control')).toBe('no-cache');
    expect(await build.json()).toEqual({ id: expect.stringMatching(/^[0-9a-f]{16}$/) });
  });

  it('serves the service worker, revalidated on every check and sent as the build compressed it; the CSP allows it and the manifest from this origin only', async () => {
    const worker = await fetch(`${site.url}/sw.js`, { headers: { 'accept-encoding': 'br' } });
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    expect(worker.headers.get('content-encoding')).toBe('br');
    const source = await worker.text();
    // Built with the build's file list and id: each build's worker precaches its own scripts and offline page.
    const { id } = (await (await fetch(`${site.url}/builds/latest.json`)).json()) as { id: string };
    expect(source).toContain(`{"revision":"${id}","url":"offline"}`);
    expect(source).toMatch(/"url":"assets\/entry-client-[\w-]+\.js"/);

    const csp = (await fetch(`${site.url}/`)).headers.get('content-security-policy')!;
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
    expect(csp).toMatch(/script-src 'self' 'sha256-[^;]*;/);
    expect(csp).not.toMatch(/script-src[^;]*('unsafe-inline'|blob:|data:)/);
  });

  it('serves the web app manifest from the site settings, with the icons it names', async () => {
    const html = await (await fetch(`${site.url}/levels`)).text();
    // Linked once the page has loaded (web/pwa/pwa-client.ts; offline.browser checks Chromium finds it), not fetched during the first load.
    expect(html).not.toContain('rel="manifest"');
    expect(html).toContain('<meta name="theme-color" content="#030712" media="(prefers-color-scheme: dark)"/>');
    const response = await fetch(`${site.url}/manifest.webmanifest`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/manifest+json; charset=utf-8');
    const manifest = (await response.json()) as { name: string; start_url: string; display: string; icons: { src: string; type: string }[] };
    expect(manifest).toMatchObject({ name: 'Mystery Doors Guide', start_url: '/', display: 'standalone' });
    for (const icon of [...manifest.icons, { src: '/apple-touch-icon.png', type: 'image/png' }]) {
      const file = await fetch(`${site.url}${icon.src}`);
      expect([icon.src, file.status, file.headers.get('content-type')]).toEqual([icon.src, 200, icon.type]);
    }
    const offline = await fetch(`${site.url}/offline`);
    expect(offline.status).toBe(200);
    expect(await offline.text()).toContain('<meta name="robots" content="noindex"/>');
  });

  describe('client error log', () => {
    it('stores a valid report and shows it to ops only', async () => {
      const posted = await fetch(`${site.url}/api/v1/log_client_error`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(report('GET /api/v1/levels failed with 502')),
      });
      expect(posted.status).toBe(204);

      expect((await fetch(`${site.url}/api/v1/admin/client_errors`)).status).toBe(401);
      const wrong = await fetch(`${site.url}/api/v1/admin/client_errors`, { headers: { authorization: 'Bearer nope' } });
      expect(wrong.status).toBe(401);
      const listed = await fetch(`${site.url}/api/v1/admin/client_errors`, { headers: { authorization: `Bearer ${adminToken}` } });
      expect(listed.status).toBe(200);
      const { data } = await listed.json();
      expect(data).toEqual([
        expect.objectContaining({ error_type: 'API_ERROR', message: 'GET /api/v1/levels failed with 502', count: 1 }),
      ]);
    });

    it.each([
      ['a wrong type', { error: { ...report('x').error, error_type: 'HACK' } }, 'error.error_type'],
      ['an oversized message', report('x'.repeat(2001)), 'error.message'],
      ['an unknown field', { error: { ...report('x').error, extra: { deep: { deeper: 1 } } } }, 'error'],
      ['no error object', { message: 'x' }, 'error'],
    ])('refuses %s with 400 naming the field', async (_case, body, field) => {
      const response = await fetch(`${site.url}/api/v1/log_client_error`, { method: 'POST', headers: json, body: JSON.stringify(body) });
      expect(response.status).toBe(400);
      const answer = await response.json();
      expect(answer.code).toBe('REQUEST.INVALID');
      expect(answer.errors[0]).toMatch(new RegExp(`^${field.replace('.', '\\.')}`));
    });

    it('refuses a body over 64 KiB with 413 and bad JSON with 400, without detail', async () => {
      const big = await fetch(`${site.url}/api/v1/log_client_error`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(report('x'.repeat(70_000))),
      });
      expect(big.status).toBe(413);
      expect((await big.json()).errors).toEqual(['Request body is too large']);
      const broken = await fetch(`${site.url}/api/v1/log_client_error`, { method: 'POST', headers: json, body: '{"error":' });
      expect(broken.status).toBe(400);
      expect(JSON.stringify(await broken.json())).not.toMatch(/at |node_modules/);
    });

    it('rate limits a flood from one client with 429 and Retry-After', async () => {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 35; i++) {
        const response = await fetch(`${site.url}/api/v1/log_client_error`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify(report(`flood ${i}`)),
        });
        statuses.push(response.status);
        if (response.status === 429) retryAfter = response.headers.get('retry-after');
      }
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
      expect(statuses.at(-1)).toBe(429);
      expect(Number(retryAfter)).toBeGreaterThan(0);
    });
  });

  it('writes JSON logs with the request id and without credentials', async () => {
    await fetch(`${site.url}/no/such/page?email=someone@example.com`, {
      headers: { cookie: 'token=super-secret-cookie', authorization: 'Bearer super-secret-token', 'x-request-id': 'trace-0001abcd' },
    });
    // The request's log line is written as the response ends: wait for it, not for a while.
    await until('the request logged', () => site.app.stdout().includes('trace-0001abcd'));
    const lines = site.app.stdout().trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    const requestLine = lines.map((l) => JSON.parse(l)).find((l) => l.requestId === 'trace-0001abcd');
    expect(requestLine).toMatchObject({ req: { method: 'GET', path: '/no/such/page' }, res: { statusCode: 404 } });
    expect(site.app.output()).not.toMatch(/super-secret|someone@example\.com/);
  });
});

describe('readiness', () => {
  it('stays ready but degraded when only the configured Redis is down (pages still work)', async () => {
    const site = await startInProcessSite({ env: { REDIS_URL: 'redis://127.0.0.1:1', MIGRATE_ON_START: 'true' } });
    try {
      const ready = await fetch(`${site.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: 'degraded',
        checks: { database: 'up', migrations: 'up to date', redis: 'down', workers: 'unknown' },
      });
    } finally {
      await site.close();
    }
  });
});
