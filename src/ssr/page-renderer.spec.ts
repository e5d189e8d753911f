import { EventEmitter } from 'node:events';
import { brotliDecompressSync } from 'node:zlib';
import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import type { AppConfig } from 'src/config/app-config';
import type { PagePayload } from 'src/contracts/ssr';
import { DatabaseUnavailableError } from 'src/platform/database/database.errors';
import { countRoundTrips } from 'src/platform/database/round-trips';
import type { MetricsService } from 'src/platform/metrics/metrics.service';
import { fakePageData } from 'test/support/fake-page-data';
import { fakeReply, fakeRequest, fakeServerEntry, foundMatch, html } from 'test/support/fake-http';
import { PageRenderer } from './page-renderer';
import type { ServerEntrySource } from './server-entry-source.port';
import type { SitePageData } from './site-page-data';

const assets = { scripts: ['/assets/entry.js'], styles: [], preloads: [] };
const source = { entry: async () => undefined, assets: () => assets, buildId: 'b1' } as unknown as ServerEntrySource;
const config = { http: { publicUrl: 'https://guides.example' } } as AppConfig;

function renderer() {
  const rendered: string[] = [];
  const loaded: [string, number][] = [];
  const metrics = {
    pageRendered: (target: string) => rendered.push(target),
    pageLoaded: (route: string, roundTrips: number) => loaded.push([route, roundTrips]),
  } as unknown as MetricsService;
  return { rendered, loaded, pageRenderer: new PageRenderer(source, { data: fakePageData() } as SitePageData, config, metrics) };
}
const signal = () => new AbortController().signal;

/** A pool connection as the round-trip counter sees it (pg's Client: one `query` call per round trip). */
function countedClient() {
  const pool = new EventEmitter();
  countRoundTrips(pool as unknown as Pool);
  const client = { query: async (sql: string) => ({ rows: [{ sql }] }) };
  pool.emit('connect', client);
  return client;
}

describe('PageRenderer', () => {
  // Failures are logged by design; the log is not what these tests read.
  beforeAll(() => Logger.overrideLogger(false));

  it('renders from the match it is given, at the public URL of the key or request', async () => {
    const { pageRenderer, rendered } = renderer();
    const inputs: unknown[] = [];
    const { entry } = fakeServerEntry();
    entry.render = async (input) => (inputs.push(input), html('<html>27</html>'));
    const match = foundMatch();
    const { reply, sent } = fakeReply();
    await pageRenderer.stream(entry, fakeRequest('/levels/27?x=1', { headers: { 'user-agent': 'Googlebot/2.1' } }), reply, match, '/levels/27', signal(), false);
    expect(inputs).toEqual([expect.objectContaining({ url: 'https://guides.example/levels/27', match, waitForAll: true, admin: false, buildId: 'b1' })]);
    expect(sent).toMatchObject({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' } });
    expect(String(sent.body)).toBe('<html>27</html>');
    expect(rendered).toEqual(['stream']);
  });

  it('compresses a finished page once, brotli for a browser, and leaves a small one as it is', async () => {
    const { pageRenderer } = renderer();
    const page = `<!DOCTYPE html><main>${'<p class="mt-2 text-gray-700">Tap the brass key.</p>'.repeat(100)}</main>`;
    const asked = (encoding: string) => fakeRequest('/levels/27', { headers: { 'accept-encoding': encoding } });
    const browser = fakeReply();
    await pageRenderer.stream(fakeServerEntry({ html: () => html(page) }).entry, asked('gzip, deflate, br, zstd'), browser.reply, foundMatch(), '/levels/27', signal(), false);
    expect(browser.sent.headers).toMatchObject({ 'content-encoding': 'br', vary: 'accept-encoding' });
    expect(brotliDecompressSync(browser.sent.body as Buffer).toString()).toBe(page);
    const small = fakeReply();
    const request = asked('gzip, br');
    await pageRenderer.stream(fakeServerEntry({ html: () => html('<html>27</html>') }).entry, request, small.reply, foundMatch(), '/levels/27', signal(), false);
    expect(small.sent.headers['content-encoding']).toBeUndefined();
    expect(String(small.sent.body)).toBe('<html>27</html>');
    // @fastify/compress is told to leave it alone too.
    expect(request.headers['x-no-compression']).toBe('1');
  });

  it('records each load\'s database round trips under the page\'s label, a payload\'s with its suffix', async () => {
    const { pageRenderer, loaded } = renderer();
    const client = countedClient();
    const { entry } = fakeServerEntry();
    const render = entry.render;
    entry.render = async (input) => (await client.query('select 1'), render(input));
    const payload = entry.payload;
    entry.payload = async (input) => (await Promise.all([client.query('select 1'), client.query('select 2')]), payload(input));
    await pageRenderer.stream(entry, fakeRequest('/levels/27'), fakeReply().reply, foundMatch(), '/levels/27', signal(), false);
    await pageRenderer.payload(entry, fakeRequest('/levels/27/_payload.json'), fakeReply().reply, foundMatch(), '/levels/27', signal(), false);
    await pageRenderer.pageForCache(entry, fakeRequest('/'), foundMatch({ pattern: '/' }), '/');
    expect(loaded).toEqual([
      ['/levels/:id', 1],
      ['/levels/:id/_payload.json', 2],
      ['/', 1],
    ]);
  });

  it('never lets an admin page be stored, and follows a loader\'s redirect', async () => {
    const { pageRenderer } = renderer();
    const admin = fakeReply();
    await pageRenderer.stream(fakeServerEntry().entry, fakeRequest('/admin'), admin.reply, foundMatch(), '/admin', signal(), true);
    expect(admin.sent.headers['cache-control']).toBe('no-store');
    const moved = fakeServerEntry({ html: () => ({ kind: 'redirect', status: 302, location: '/' }) });
    const redirected = fakeReply();
    await pageRenderer.stream(moved.entry, fakeRequest('/pricing'), redirected.reply, foundMatch(), '/pricing', signal(), false);
    expect(redirected.sent.redirect).toEqual({ location: '/', status: 302 });
  });

  it('answers a database outage with 503 and Retry-After, and a failed render with the plain error document', async () => {
    const { pageRenderer } = renderer();
    const outage = fakeServerEntry({ html: () => html('<html>500</html>', 500, [new DatabaseUnavailableError()]) });
    const down = fakeReply();
    await pageRenderer.stream(outage.entry, fakeRequest('/levels/27'), down.reply, foundMatch(), '/levels/27', signal(), false);
    expect(down.sent).toMatchObject({ status: 503, body: '<!DOCTYPE html>error 503', headers: { 'retry-after': '5', 'cache-control': 'no-store' } });
    const broken = fakeServerEntry();
    broken.entry.render = () => Promise.reject(new Error('shell failed'));
    const failed = fakeReply();
    await pageRenderer.stream(broken.entry, fakeRequest('/levels/27'), failed.reply, foundMatch(), '/levels/27', signal(), false);
    expect(failed.sent).toMatchObject({ status: 500, body: '<!DOCTYPE html>error 500', headers: { 'cache-control': 'no-store' } });
  });

  it('renders for the cache for nobody in particular, and keeps found pages only', async () => {
    const { pageRenderer, rendered } = renderer();
    const inputs: unknown[] = [];
    const { entry } = fakeServerEntry();
    entry.render = async (input) => (inputs.push(input), html('<html>27</html>'));
    const request = fakeRequest('/levels/27?utm=1', { headers: { 'accept-language': 'fr', 'user-agent': 'x' } });
    await expect(pageRenderer.pageForCache(entry, request, foundMatch(), '/levels/27')).resolves.toEqual({ status: 200, contentType: 'text/html; charset=utf-8', body: Buffer.from('<html>27</html>') });
    expect(inputs).toEqual([expect.objectContaining({ url: 'https://guides.example/levels/27', headers: {}, waitForAll: true, admin: false })]);
    expect(rendered).toEqual(['cache']);
    const missing = fakeServerEntry({ html: () => html('<html>404</html>', 404) });
    await expect(pageRenderer.pageForCache(missing.entry, request, foundMatch(), '/levels/99999')).resolves.toBeNull();
  });

  it('answers a payload with a weak ETag (304 when the client has it) and keeps only found payloads for the cache', async () => {
    const { pageRenderer } = renderer();
    const { entry } = fakeServerEntry();
    const first = fakeReply({ 'x-frame-options': 'SAMEORIGIN' });
    await pageRenderer.payload(entry, fakeRequest('/levels/27/_payload.json'), first.reply, foundMatch(), '/levels/27', signal(), false);
    expect(first.sent).toMatchObject({ status: 200, headers: { 'cache-control': 'no-cache', vary: 'accept-encoding', 'content-type': 'application/json; charset=utf-8' } });
    expect(first.sent.headers['x-frame-options']).toBeUndefined();
    expect(JSON.parse(String(first.sent.body))).toEqual({ routeId: 'level', locale: 'en', params: { id: '27' }, status: 200, data: { n: 27 } });
    const etag = first.sent.headers.etag!;
    expect(etag).toMatch(/^W\//);
    const again = fakeReply();
    await pageRenderer.payload(entry, fakeRequest('/levels/27/_payload.json', { headers: { 'if-none-match': etag } }), again.reply, foundMatch(), '/levels/27', signal(), false);
    expect(again.sent).toMatchObject({ status: 304, body: undefined });
    const notFound = fakeServerEntry({ payload: (): PagePayload => ({ routeId: 'not-found', locale: 'en', params: {}, status: 404, error: { status: 404 } }) });
    await expect(pageRenderer.payloadForCache(notFound.entry, fakeRequest('/x/_payload.json'), foundMatch(), '/x')).resolves.toBeNull();
  });

  it('answers a payload during a database outage with 503 JSON and Retry-After', async () => {
    const { pageRenderer } = renderer();
    const outage = fakeServerEntry({ payload: () => ({ routeId: 'level', locale: 'en', params: {}, status: 500, error: { status: 500 }, errors: [new DatabaseUnavailableError()] }) });
    const { reply, sent } = fakeReply();
    await pageRenderer.payload(outage.entry, fakeRequest('/levels/27/_payload.json'), reply, foundMatch(), '/levels/27', signal(), false);
    expect(sent).toMatchObject({ status: 503, headers: { 'retry-after': '5', 'cache-control': 'no-store' }, body: { status: 503, error: { status: 503 } } });
  });
});
