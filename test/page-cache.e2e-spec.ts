import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants as zlib, gunzipSync, gzipSync } from 'node:zlib';
import { CONTENT_CLI, runUntilExit } from './support/app-process';
import { startInProcessSite, type InProcessSite } from './support/site';
import { until } from './support/until';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent: fetch would decode them. */
  body: Buffer;
}

/** One request whose body is read as it came over the wire, undecoded. */
function raw(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { connection: 'close', ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (response: Raw) => {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.body).toString();
  if (encoding === 'gzip') return gunzipSync(response.body).toString();
  return response.body.toString();
};

/** Cached pages as immutable bytes over HTTP: variants, ETags, 304, HEAD, keys, invalidation, assets. */
describe('the page cache and precompressed assets (PostgreSQL, Redis)', () => {
  let contentDir: string;
  let site: InProcessSite;
  const get = (path: string, headers: Record<string, string> = {}) => raw(site.port, path, headers);
  /** Brotli 11 takes brotli 5's place once the entry is asked again (its ETag ends in -br): ask until it is served. */
  const brotliOf = async (path: string) => {
    let response: Raw | undefined;
    await until(`brotli 11 of ${path}`, async () => /-br"$/.test(String((response = await get(path, { 'accept-encoding': 'br, gzip' })).headers.etag)), 10_000);
    return response!;
  };

  beforeAll(async () => {
    contentDir = await mkdtemp(join(tmpdir(), 'guides-page-cache-'));
    await cp(join(__dirname, 'fixtures/content'), contentDir, { recursive: true });
    site = await startInProcessSite({
      redis: true,
      env: {
        MIGRATE_ON_START: 'true',
        CONTENT_DIR: contentDir,
        NODE_ENV: 'production',
        // An import by the CLI (another process) shows after this.
        PAGE_CACHE_TTL_SECONDS: '2',
      },
    });
  });

  afterAll(async () => {
    await site?.close();
    await rm(contentDir, { recursive: true, force: true });
  });

  it('answers a cached page with the same bytes every time, and its br, gzip and identity variants decode to the same HTML', async () => {
    const first = await get('/levels/11', { 'accept-encoding': 'gzip' });
    const second = await get('/levels/11', { 'accept-encoding': 'gzip' });
    expect(first.status).toBe(200);
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['content-security-policy']).toBe(first.headers['content-security-policy']);

    const br = await brotliOf('/levels/11');
    const identity = await get('/levels/11');
    const refused = await get('/levels/11', { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(refused.headers['content-encoding']).toBeUndefined();
    const html = identity.body.toString();
    expect(html).toContain('The Flooded Cellar');
    expect(decode(br)).toBe(html);
    expect(decode(first)).toBe(html);
    expect(refused.body.equals(identity.body)).toBe(true);

    // One strong ETag per variant, each response sized and marked as varying by encoding.
    expect(new Set([identity.headers.etag, first.headers.etag, br.headers.etag]).size).toBe(3);
    for (const response of [identity, first, br]) {
      expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.headers['content-length']).toBe(String(response.body.length));
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    }
  });

  it('compresses a page rendered per request (not cached) in one go, and each encoding decodes to the same HTML', async () => {
    // A guide nobody wrote yet: a 404 page, so never stored, rendered on every request.
    const path = '/levels/777';
    const identity = await get(path);
    const browser = await get(path, { 'accept-encoding': 'br, gzip' });
    const gzipped = await get(path, { 'accept-encoding': 'gzip' });
    expect(identity.status).toBe(404);
    expect(identity.headers['content-encoding']).toBeUndefined();
    // Brotli 5 for whoever takes brotli, gzip 6 for a gzip-only client (src/ssr/encoded-response.ts).
    expect(browser.headers['content-encoding']).toBe('br');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    for (const response of [identity, browser, gzipped]) {
      expect(response.status).toBe(404);
      // React finished it in the shell (no page suspends on the server): sent whole, with its length; no stored entry's ETag.
      expect(response.headers['content-length']).toBe(String(response.body.length));
      expect(response.headers.etag).toBeUndefined();
    }
    const html = identity.body.toString();
    expect(html).toMatch(/^<!DOCTYPE html>[\s\S]*<\/html>$/);
    expect(html).toContain('777');
    expect(decode(browser)).toBe(html);
    expect(decode(gzipped)).toBe(html);
    // Compressed in one go, as one call makes it: a stream flushed in small pieces would be larger.
    // (A fixed ratio to the HTML's length said less: hashed chunk names do not compress.)
    expect(gzipped.body.length).toBe(gzipSync(html, { level: 6 }).length);
    expect(browser.body.length).toBe(brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_LGWIN]: 16 } }).length);
    expect(gzipped.body.length).toBeLessThan(html.length / 2.5);
    expect(browser.body.length).toBeLessThan(gzipped.body.length);
  });

  it('answers a browser brotli from its first visit (the bytes of an uncached answer), brotli 11 once the page is asked again, and 304 to either tag', async () => {
    const first = await get('/levels/10', { 'accept-encoding': 'br, gzip' });
    expect(first.status).toBe(200);
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.etag).toMatch(/-br5"$/);
    const html = (await get('/levels/10')).body.toString();
    expect(decode(first)).toBe(html);
    expect(first.body.length).toBe(brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_LGWIN]: 16 } }).length);
    const best = await brotliOf('/levels/10');
    expect(decode(best)).toBe(html);
    expect(best.body.length).toBeLessThanOrEqual(first.body.length);
    // A browser that kept the first answer revalidates it without a body.
    expect((await get('/levels/10', { 'accept-encoding': 'br, gzip', 'if-none-match': first.headers.etag as string })).status).toBe(304);
  });

  it('answers 304 to If-None-Match and HEAD with the headers of GET and no body', async () => {
    const page = await get('/levels/11', { 'accept-encoding': 'gzip' });
    const etag = page.headers.etag as string;
    const revalidated = await get('/levels/11', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.etag).toBe(etag);
    expect(revalidated.body.length).toBe(0);
    expect((await get('/levels/11', { 'accept-encoding': 'gzip', 'if-none-match': '"something-else"' })).status).toBe(200);

    const head = await raw(site.port, '/levels/11', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers.etag).toBe(etag);
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.headers['content-length']).toBe(String(page.body.length));
  });

  it('serves parameters the page does not read from the same entry', async () => {
    const page = await get('/levels/11');
    const random = await get(`/levels/11?x=${Math.random()}&utm_source=mail`);
    expect(random.status).toBe(200);
    expect(random.headers.etag).toBe(page.headers.etag);
    expect(random.body.equals(page.body)).toBe(true);
    // Still refused when too long, though its key is cached.
    expect((await get(`/levels/11?x=${'a'.repeat(9000)}`)).status).toBe(414);
    // A parameter the list reads is a page of its own.
    const list = await get('/levels?x=random');
    expect(list.headers.etag).toBe((await get('/levels')).headers.etag);
    expect((await get('/levels?difficulty=hard')).headers.etag).not.toBe(list.headers.etag);
  });

  it('caches the payload JSON of client navigation like its page, in the same variants', async () => {
    const gzipped = await get('/levels/11/_payload.json?x=1', { 'accept-encoding': 'gzip' });
    expect(gzipped.status).toBe(200);
    expect(gzipped.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    const identity = await get('/levels/11/_payload.json');
    expect(JSON.parse(decode(gzipped))).toEqual(JSON.parse(identity.body.toString()));
    expect(JSON.parse(identity.body.toString())).toMatchObject({ routeId: 'level', status: 200 });
    expect(identity.body.toString()).toContain('The Flooded Cellar');
    expect((await get('/levels/11/_payload.json', { 'if-none-match': identity.headers.etag as string })).status).toBe(304);
    expect(decode(await brotliOf('/levels/11/_payload.json'))).toBe(identity.body.toString());

    // Data, not a document: the headers that matter for JSON, the same stored (hit) or rendered (miss, uncached).
    const uncached = await get('/levels/9999/_payload.json');
    expect(uncached.status).toBe(404);
    for (const response of [gzipped, identity, uncached]) {
      expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(response.headers['x-frame-options']).toBeUndefined();
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    // A page after it still has the page's policy.
    expect((await get('/levels/11')).headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
  });

  it('serves a new ETag after a guide file changes and the content is imported again', async () => {
    const before = await get('/levels/11');
    const payloadBefore = await get('/levels/11/_payload.json');
    const file = join(contentDir, 'levels/011.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('Knee-deep water and a rusty door.', 'Waist-deep water and a rusty door.'));
    const imported = await runUntilExit({ DATABASE_URL: site.database!.url, CONTENT_DIR: contentDir }, { script: CONTENT_CLI, args: ['import'] });
    expect(imported.code).toBe(0);
    // Another process imported: this one hears of it (PostgreSQL NOTIFY), or at worst its entry expires.
    let after: Raw | undefined;
    await until('a new ETag', async () => (after = await get('/levels/11')).headers.etag !== before.headers.etag, 10_000);
    expect(after!.body.toString()).toContain('Waist-deep water');
    // The payload is an entry of its own, stored at its own time: it expires on its own clock.
    const payload = await until('a new payload ETag', async () => {
      const response = await get('/levels/11/_payload.json');
      return response.headers.etag !== payloadBefore.headers.etag && response;
    }, 10_000);
    expect(payload.body.toString()).toContain('Waist-deep water');
    expect((await get('/levels/11', { 'if-none-match': before.headers.etag as string })).status).toBe(200);
  });

  it('serves hashed JavaScript precompressed with brotli, cached for a year', async () => {
    const html = (await get('/levels/11')).body.toString();
    const script = /<script type="module" src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const plain = await get(script!);
    const br = await get(script!, { 'accept-encoding': 'br, gzip' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    // The file the build wrote, sent as it is (compressing per request streams it without a length).
    expect(br.headers['content-length']).toBe(String(br.body.length));
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await get(script!, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
  });
});
