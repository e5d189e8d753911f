import { connect } from 'node:net';
import { join } from 'node:path';
import { sendFrom } from './support/loopback-client';
import { useInProcessSite } from './support/site';

const CONTENT_DIR = join(__dirname, 'fixtures/content');

/** One raw HTTP/1.1 request as written (fetch cannot send an absolute-form target); resolves with the status. */
async function rawStatus(port: number, request: string): Promise<number> {
  const socket = connect(port, '127.0.0.1');
  socket.write(request);
  let text = '';
  for await (const chunk of socket) {
    text += String(chunk);
    if (text.includes('\r\n')) break;
  }
  socket.destroy();
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
}

/** Requests from the outside that used to end in a 500 (a stack trace and a stored error group each). */
describe('hostile anonymous requests get a clean answer, never a 500', () => {
  const site = useInProcessSite({ redis: true, env: { MIGRATE_ON_START: 'true', CONTENT_DIR, HAS_LOGIN: 'true' } });
  const get = (path: string) => fetch(`${site.url}${path}`, { redirect: 'manual' });

  let logged = 0;
  beforeEach(() => (logged = site.app.stdout().length));
  afterEach(() => {
    // None of them is a server error: nothing was logged as one.
    expect(site.app.stdout().slice(logged)).not.toMatch(/"level":50/);
  });

  it.each([
    ['a NUL byte', '%00'],
    ['NUL inside a word', 'door%00key'],
    ['33 dashes', '-'.repeat(33)],
    ['dashes between brackets', '-('.repeat(40)],
    ['spaced dashes', `door${'%20-'.repeat(40)}`],
  ])('searches with %s: the API, the levels page and the blog answer 200', async (_label, term) => {
    const api = await get(`/api/v1/levels?query=${term}`);
    expect(api.status).toBe(200);
    expect(await api.json()).toMatchObject({ levels: expect.any(Array) });
    expect((await get(`/levels?query=${term}`)).status).toBe(200);
    expect((await get(`/blog?query=${term}`)).status).toBe(200);
  });

  it('answers an absolute-form request target with 400', async () => {
    const status = await rawStatus(site.port, 'GET http://evil.com/levels/27 HTTP/1.1\r\nHost: evil.com\r\nConnection: close\r\n\r\n');
    expect(status).toBe(400);
  });

  it.each(['//%00', '//', '//levels/27', '//evil.com/levels'])('answers the path %s, which parsers read as a host, with 404', async (path) => {
    expect(await rawStatus(site.port, `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`)).toBe(404);
  });

  it('stores concurrent client error reports of the same and of different errors, every one answered 2xx', async () => {
    const report = (i: number) =>
      JSON.stringify({ error: { error_type: 'CLIENT_ERROR', origin_type: 1, message: `Broke ${'x'.repeat(i % 5)}`, backtrace: null } });
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        sendFrom(i, site.port, '/api/v1/log_client_error', { method: 'POST', headers: { 'content-type': 'application/json', origin: site.url }, body: report(i) }),
      ),
    );
    expect(answers.filter((a) => a.status < 200 || a.status > 299)).toEqual([]);
  });

  it('sends the Google callback home when Google sign-in is off', async () => {
    const response = await get('/auth/google_oauth2/callback?code=abc&state=def');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/');
  });
});
