import { connect } from 'node:net';
import { hash } from 'argon2';
import { Client } from 'pg';
import type { InProcessApp } from './support/in-process-app';
import { useInProcessSite } from './support/site';

const PUBLIC_URL = 'https://guides.example';
const ADMIN = 'ops@example.com';
const json = { 'content-type': 'application/json' };

/** Sends bytes as they are (fetch refuses malformed requests) and resolves with the status and body. */
async function rawRequest(port: number, request: string): Promise<{ status: number; body: string }> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.write(request);
  await new Promise<void>((resolve) => {
    socket.on('close', () => resolve());
    socket.on('error', () => resolve());
    // One response is enough: close once its body is in.
    socket.on('data', () => {
      const [head, body = ''] = received.split('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(head ?? '')?.[1];
      if (length !== undefined && Buffer.byteLength(body) >= Number(length)) socket.destroy();
    });
  });
  const [head, body = ''] = received.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head ?? '')?.[1]), body };
}

describe('the HTTP edge of the web app', () => {
  const site = useInProcessSite({ env: { HAS_LOGIN: 'true', ADMIN_EMAILS: ADMIN, NODE_ENV: 'production', MIGRATE_ON_START: 'true', PUBLIC_URL, TRUST_PROXY: '1' } });
  let adminToken: string;

  beforeAll(async () => {
    adminToken = await site.signedInUser(ADMIN);
  });

  it('answers admin and signed-in API responses with Cache-Control: no-store', async () => {
    const response = await fetch(`${site.url}/api/v1/admin/guide_requests`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('sets the vid voter cookie Secure when PUBLIC_URL is https', async () => {
    const response = await fetch(`${site.url}/api/v1/levels/634/guide_requests`, { method: 'POST' });
    expect(response.status).toBe(201);
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^vid=/);
    expect(cookie).toMatch(/; Secure/);
  });

  it('answers errors raised by Fastify before Nest with the API error shape on API paths', async () => {
    const badUrl = await rawRequest(site.port, 'GET /api/v1/levels/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(badUrl.status).toBe(400);
    expect(JSON.parse(badUrl.body)).toEqual({ errors: [expect.any(String)], code: 'HTTP.400' });

    const tooLong = await rawRequest(site.port, `GET /api/v1/${'a'.repeat(9000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(tooLong.status).toBe(414);
    expect(JSON.parse(tooLong.body)).toEqual({ errors: [expect.any(String)], code: 'HTTP.414' });

    const bigHeaders = await rawRequest(site.port, `GET /api/v1/levels HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(bigHeaders.status).toBe(431);
    expect(JSON.parse(bigHeaders.body)).toEqual({ errors: [expect.any(String)], code: 'HTTP.431' });
  });

  it('takes the client address from the last X-Forwarded-For hop with TRUST_PROXY=1', async () => {
    const vote = (forwardedFor: string) =>
      fetch(`${site.url}/api/v1/levels/633/guide_requests`, { method: 'POST', headers: { 'x-forwarded-for': forwardedFor } });
    const remaining = async (forwardedFor: string) => Number((await vote(forwardedFor)).headers.get('x-ratelimit-remaining'));
    const first = await remaining('1.2.3.4, 5.6.7.8');
    // The same last hop is the same client, whatever it put in front; another last hop is another client.
    expect(await remaining('9.9.9.9, 5.6.7.8')).toBe(first - 1);
    expect(await remaining('5.6.7.8, 7.7.7.7')).toBe(first);
  });

  it('takes JSON only on API writes, multipart only where uploads go', async () => {
    const form = await fetch(`${site.url}/auth/sign_in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `email=${encodeURIComponent(ADMIN)}&password=whatever-it-is`,
    });
    expect(form.status).toBe(415);
    expect(await form.json()).toEqual({ errors: [expect.any(String)], code: 'REQUEST.JSON_ONLY' });
    const parts = new FormData();
    parts.set('helpful', 'true');
    expect((await fetch(`${site.url}/api/v1/levels/27/feedback`, { method: 'POST', body: parts })).status).toBe(415);
    const text = await fetch(`${site.url}/auth/password`, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect(text.status).toBe(415);

    // The image upload still takes its multipart form (it answers for itself: here the tool is off).
    const upload = new FormData();
    upload.set('conversion', 'ai-2x');
    upload.set('file', new Blob([Buffer.alloc(64)], { type: 'image/png' }), 'photo.png');
    const uploaded = await fetch(`${site.url}/api/v1/images`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}` }, body: upload });
    expect(uploaded.status).not.toBe(415);
    expect(((await uploaded.json()) as { code: string }).code).not.toBe('REQUEST.JSON_ONLY');
  });

  it('refuses form and text bodies on every API write however its path is spelled (percent-encoded, double or trailing slashes)', async () => {
    const document = (await (await fetch(`${site.url}/api/docs/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const writes = Object.entries(document.paths).flatMap(([template, methods]) =>
      Object.keys(methods)
        .map((method) => method.toUpperCase())
        .filter((method) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method))
        .map((method) => ({ method, path: template.replace(/\{number\}/g, '27').replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000') })),
    );
    // The upload takes multipart, the webhook raw bytes: they answer for themselves.
    const checked = writes.filter(({ path }) => path !== '/api/v1/images' && path !== '/api/v1/payments/stripe/webhook');
    expect(checked.length).toBeGreaterThan(10);
    const encode = (path: string, at: number) => `${path.slice(0, at)}%${path.charCodeAt(at).toString(16)}${path.slice(at + 1)}`;
    const spellings = (path: string) => [
      encode(path, 1), // /%61pi/v1/..., /%61uth/...
      encode(path, 3), // /ap%69/v1/..., /au%74h/...
      encode(path, path.lastIndexOf('/') + 1), // .../27/%70rogress
      `/${path}`,
      path.replace(/^(\/[a-z]+)\//, '$1//'),
      `${path}/`,
    ];
    const ip = () => `10.9.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;
    const send = (method: string, path: string, type: string, body: string) =>
      fetch(`${site.url}${path}`, { method, headers: { 'content-type': type, 'x-forwarded-for': ip() }, body });
    const answers: string[] = [];
    const expected: string[] = [];
    for (const { method, path } of checked) {
      // The one-click unsubscribe takes the urlencoded form mail providers send (RFC 8058), and text no more than the others.
      const bodies = [['application/x-www-form-urlencoded', 'a=1&b=2'], ['text/plain', '{}']] as const;
      for (const [type, body] of path === '/api/v1/reminders/unsubscribe' ? bodies.slice(1) : bodies) {
        const plain = await send(method, path, type, body);
        const plainAnswer = `${plain.status} ${await plain.text()}`;
        expect(`${method} ${path} ${type}: ${plainAnswer}`).toMatch(/: 415 .*REQUEST\.JSON_ONLY/);
        for (const spelled of spellings(path)) {
          const response = await send(method, spelled, type, body);
          answers.push(`${method} ${spelled} ${type}: ${response.status} ${await response.text()}`);
          expected.push(`${method} ${spelled} ${type}: ${plainAnswer}`);
        }
      }
    }
    expect(answers).toEqual(expected);
  });

  it('takes sign-in and the other anonymous account writes from this site only, when a browser says where they come from', async () => {
    const db = new Client({ connectionString: site.database!.url });
    await db.connect();
    await db.query('update users set password_hash = $1 where email = $2', [await hash('correct horse battery'), ADMIN]);
    await db.end();
    const signIn = (headers: Record<string, string>) =>
      fetch(`${site.url}/auth/sign_in`, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify({ email: ADMIN, password: 'correct horse battery' }) });

    const evil = await signIn({ origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as { code: string }).code).toBe('AUTH.CROSS_SITE');
    expect((await signIn({ 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await signIn({ origin: 'null' })).status).toBe(403);
    for (const path of ['/auth/sign_up', '/auth/confirmation', '/auth/confirm', '/auth/password']) {
      const response = await fetch(`${site.url}${path}`, { method: 'POST', headers: { ...json, origin: 'https://evil.example' }, body: '{}' });
      expect([path, response.status]).toEqual([path, 403]);
    }

    const own = await signIn({ origin: PUBLIC_URL, 'sec-fetch-site': 'same-origin' });
    expect(own.status).toBe(200);
    expect(own.headers.get('authorization')).toMatch(/^Bearer /);
    // No Origin and no Sec-Fetch-Site: not a browser (curl, a native app), which carries no visitor's cookie.
    expect((await signIn({})).status).toBe(200);
  });

  describe('with TRUST_PROXY naming a proxy that is not the caller', () => {
    let untrusting: InProcessApp;

    beforeAll(async () => {
      untrusting = await site.startApp({ TRUST_PROXY: '10.9.9.9, 192.168.0.0/16' });
    });

    afterAll(async () => {
      await untrusting?.stop();
    });

    it('ignores X-Forwarded-For', async () => {
      const vote = (forwardedFor: string) =>
        fetch(`${untrusting.url}/api/v1/levels/632/guide_requests`, { method: 'POST', headers: { 'x-forwarded-for': forwardedFor } });
      const first = Number((await vote('1.2.3.4')).headers.get('x-ratelimit-remaining'));
      expect(Number((await vote('5.6.7.8')).headers.get('x-ratelimit-remaining'))).toBe(first - 1);
    });
  });
});
