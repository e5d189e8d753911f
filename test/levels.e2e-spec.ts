import { join } from 'node:path';
import { useInProcessSite } from './support/site';
import { PAGES } from 'web/route-table';

const CONTENT_DIR = join(__dirname, 'fixtures/content');
const ADMIN = 'editor@example.com';
let adminToken: string;

describe('level guides over HTTP (PostgreSQL, Redis)', () => {
  const site = useInProcessSite({ redis: true, env: { MIGRATE_ON_START: 'true', CONTENT_DIR, HAS_LOGIN: 'true', ADMIN_EMAILS: ADMIN } });
  const get = (path: string, init?: RequestInit) => fetch(`${site.url}${path}`, { redirect: 'manual', ...init });

  beforeAll(async () => {
    adminToken = await site.signedInUser(ADMIN);
  });

  describe('pages', () => {
    it('serves a guide with its title, hints hidden, the guide folded and structured data', async () => {
      const response = await get('/levels/10');
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain('<title>Level 10: The Telescope Room - Mystery Doors Walkthrough</title>');
      expect(html).toContain(`<link rel="canonical" href="http://localhost:${site.port}/levels/10"/>`);
      expect(html).toContain(`<meta property="og:image" content="http://localhost:${site.port}/og/levels/10.png"/>`);
      expect(html).toContain('Reference time');
      expect(html).toContain('Unlocks after level <!-- -->9');
      // No hint is shown until asked for: only in the hydration data, in <noscript>, and hidden (for the
      // remembered ones, which the inline script un-hides before the first paint).
      expect(html).toMatch(/<li data-hint="true" hidden="" [^>]*>/);
      const rendered = html.replace(/<(noscript|script)\b[\s\S]*?<\/\1>/g, '').replace(/<li data-hint="true" hidden=""[\s\S]*?<\/li>/g, '');
      expect(rendered.includes('Four, six, two.')).toBe(false);
      expect(rendered.includes('Count the stars.')).toBe(false);
      expect(html).toMatch(/<details id="solution-steps" class="group mt-8[^"]*"><summary/);
      const jsonLd = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
      const graph = jsonLd.flatMap((d) => d['@graph'] ?? [d]);
      expect(graph.map((node) => node['@type'])).toEqual(expect.arrayContaining(['BreadcrumbList', 'VideoObject']));
      const video = graph.find((node) => node['@type'] === 'VideoObject');
      expect(video.hasPart.map((clip: { startOffset: number }) => clip.startOffset)).toEqual([10, 80, 150]);
      expect(video.hasPart[2].endOffset).toBe(240);
    });

    it('shows a level with no guide as not covered, with the nearest guides', async () => {
      const response = await get('/levels/15');
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain('This level is not covered yet');
      expect(html).toContain('Request this guide');
      expect(html).toContain('href="/levels/11"');
      expect(html).toContain('href="/levels/20"');
    });

    it.each([
      ['0', '/levels/0'],
      ['636', '/levels/636'],
      ['abc', '/levels/abc'],
      ['12a', '/levels/12a'],
      ['027', '/levels/027'],
      ['-1', '/levels/-1'],
      ['a 5,000-digit number', `/levels/${'9'.repeat(5000)}`],
    ])('answers level %s with the 404 page naming the full path', async (_label, path) => {
        const response = await get(path);
        expect(response.status).toBe(404);
        expect(await response.text()).toContain(`Page Not Found: ${path}`);
    });

    it('keeps the full path, query included, in the validation message', async () => {
      const response = await get('/levels?difficulty=impossible');
      expect(response.status).toBe(404);
      expect(await response.text()).toContain('Page Not Found: /levels?difficulty=impossible');
    });

    it('lists levels with filters from the query string', async () => {
      const html = await (await get('/levels?difficulty=hard')).text();
      expect(html).toContain('href="/levels/11"');
      expect(html).toContain('href="/levels/20"');
      expect(html).not.toContain('href="/levels/10"');
      // The hard filter points to the hardest levels, longest to solve first.
      expect(html).toContain('href="/levels/hardest"');
      expect(await (await get('/levels?difficulty=easy')).text()).not.toContain('href="/levels/hardest"');
      const search = await (await get('/levels?query=telescope')).text();
      expect(search).toContain('The Telescope Room');
      expect(search).not.toContain('The Flooded Cellar');
      expect(await (await get('/levels?query=spaceship')).text()).toContain('No guides match');
    });

    it('with no store links configured, says how to find the game in each store and offers no store button', async () => {
      for (const path of ['/', '/download']) {
        const html = await (await get(path)).text();
        expect(html).toContain('iPhone and iPad: open the App Store and search for “');
        expect(html).toContain('Android: open Google Play and search for “');
        expect(html).not.toMatch(/data-store=|>Download on the App Store<|>Get it on Google Play<|>App Store<\/a>|>Google Play<\/a>/);
        expect(html).not.toContain('the links take you');
      }
    });

    it('says a page number past the end is past the end (no "try other words" when no words were given)', async () => {
      const html = await (await get('/levels?page=99')).text();
      expect(html).toContain('There is no page 99: the list ends at page 1.');
      expect(html).toContain('Go to page 1');
      expect(html).not.toContain('Try other words');
    });

    describe('the level search without JavaScript (GET /levels?level=)', () => {
      it.each([
        ['1', '/levels/1'],
        ['231', '/levels/231'],
        ['232', '/levels/232'],
        ['635', '/levels/635'],
        ['007', '/levels/7'],
      ])('redirects %s to %s', async (value, target) => {
        const response = await get(`/levels?level=${encodeURIComponent(value)}`);
        expect(response.status).toBe(302);
        expect(response.headers.get('location')).toBe(target);
      });

      it.each([
        ['', 'Please enter a level number'],
        ['0', 'Invalid level number'],
        ['636', 'Invalid level number'],
        ['12a', 'Invalid level number'],
        [' 12', 'Invalid level number'],
        ['-1', 'Invalid level number'],
        ['1e3', 'Invalid level number'],
        ['9'.repeat(5000), 'Invalid level number'],
      ].map(([value, message]) => [value!.length > 20 ? `${value!.length} digits` : JSON.stringify(value), value!, message!]))(
        'answers a search for %s with its message',
        async (_label, value, message) => {
        const response = await get(`/levels?level=${encodeURIComponent(value)}`);
        expect(response.status).toBe(200);
        expect(await response.text()).toContain(`role="alert" class="mt-2 text-sm font-medium text-red-600 dark:text-red-400">${message}<`);
        },
      );

      it('jumps to a level typed into the list search box', async () => {
        const response = await get('/levels?query=10');
        expect(response.status).toBe(302);
        expect(response.headers.get('location')).toBe('/levels/10');
      });
    });

    it('caches level pages as the same bytes with a strong ETag, and answers 304', async () => {
      const first = await get('/levels/11');
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+(-gz|-br)?"$/);
      expect(first.headers.get('cache-control')).toBe('no-cache');
      const second = await get('/levels/11');
      expect(second.headers.get('etag')).toBe(etag);
      // No per-response nonce: one CSP, one body.
      expect(second.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'));
      expect(await second.text()).toBe(await first.text());
      const revalidated = await get('/levels/11', { headers: { 'if-none-match': etag } });
      expect(revalidated.status).toBe(304);
      expect(revalidated.headers.get('etag')).toBe(etag);
    });
  });

  describe('API', () => {
    it('lists levels with the documented shape', async () => {
      const response = await get('/api/v1/levels?difficulty=hard&page=1');
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        query: { difficulty: 'hard', page: 1 },
        levels: [
          { number: 11, title: 'The Flooded Cellar', difficulty: 'hard', referenceSeconds: 360 },
          { number: 20, title: 'The Hidden Library', difficulty: 'hard', referenceSeconds: 450 },
        ],
        total: 2,
        page: 1,
        pageCount: 1,
        // Counts per difficulty for the tabs, whatever difficulty is selected.
        counts: { easy: 1, medium: 1, hard: 2, all: 4 },
      });
    });

    it('returns one level', async () => {
      const level = await (await get('/api/v1/levels/10')).json();
      expect(level).toMatchObject({
        number: 10,
        difficulty: 'medium',
        hintsHtml: ['Count the stars.', 'Three constellations are circled.', 'Four, six, two.'],
        steps: [{ html: 'Oil the <strong>telescope</strong> hinge.', atSeconds: 10 }, expect.anything(), expect.anything()],
        video: { youtubeId: 'abcDEF12345', durationSeconds: 240, sample: false },
      });
    });

    it.each([
      ['/api/v1/levels/abc', 400, 'Invalid level number'],
      ['/api/v1/levels/0', 400, 'Invalid level number'],
      ['/api/v1/levels/636', 400, 'Invalid level number'],
      ['/api/v1/levels/15', 404, 'Level 15 has no guide yet'],
      ['/api/v1/levels?difficulty=x', 400, 'difficulty: '],
      ['/api/v1/levels?page=0', 400, 'page: '],
      ['/api/v1/levels?sort=name', 400, 'Unrecognized key'],
      [`/api/v1/levels?query=${'x'.repeat(101)}`, 400, 'query: '],
    ])('answers %s with %d and a clear message', async (path, status, message) => {
      const response = await get(path);
      expect(response.status).toBe(status);
      const body = await response.json();
      expect(body.errors[0]).toContain(message);
    });

    it('counts a guide request once per browser and refuses levels that have a guide', async () => {
      const first = await get('/api/v1/levels/15/guide_requests', { method: 'POST' });
      expect(first.status).toBe(201);
      const cookie = first.headers.get('set-cookie')!;
      expect(cookie).toMatch(/^vid=[A-Za-z0-9_-]+; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Lax$/);
      expect(await first.json()).toEqual({ counted: true, requests: 1 });
      const again = await get('/api/v1/levels/15/guide_requests', { method: 'POST', headers: { cookie: cookie.split(';')[0]! } });
      expect(await again.json()).toEqual({ counted: false, requests: 1 });
      expect((await get('/api/v1/levels/10/guide_requests', { method: 'POST' })).status).toBe(409);
      const wanted = await get('/api/v1/admin/guide_requests', { headers: { authorization: `Bearer ${adminToken}` } });
      expect((await wanted.json()).data).toEqual([expect.objectContaining({ level: 15, requests: 1 })]);
      expect((await get('/api/v1/admin/guide_requests')).status).toBe(401);
    });

    it('takes helpfulness answers and validates them', async () => {
      const ok = await get('/api/v1/levels/10/feedback', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ helpful: false, reason: 'different_version' }),
      });
      expect(ok.status).toBe(204);
      const bad = await get('/api/v1/levels/10/feedback', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ helpful: 'maybe' }),
      });
      expect(bad.status).toBe(400);
      const missing = await get('/api/v1/levels/15/feedback', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ helpful: true }),
      });
      expect(missing.status).toBe(404);
    });

    it('rate limits votes from one client with 429 and Retry-After', async () => {
      let limited: Response | undefined;
      for (let i = 0; i < 15 && !limited; i++) {
        const response = await get('/api/v1/levels/16/guide_requests', { method: 'POST' });
        if (response.status === 429) limited = response;
      }
      expect(limited?.status).toBe(429);
      expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });

  it('documents the API with OpenAPI at /api/docs', async () => {
    const page = await get('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const document = await (await get('/api/docs/openapi.json')).json();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/v1/levels', '/api/v1/levels/{number}', '/api/v1/levels/{number}/guide_requests', '/api/v1/levels/{number}/feedback']),
    );
    const detail = document.paths['/api/v1/levels/{number}'].get.responses['200'].content['application/json'].schema;
    expect(detail.required).toEqual(expect.arrayContaining(['number', 'title', 'difficulty', 'hintsHtml', 'steps']));
    // Pages, images and the sitemap are not API.
    expect(Object.keys(document.paths).some((path) => path.startsWith('/og') || path === '/sitemap.xml' || path === '/*')).toBe(false);
  });

  describe('search engines and sharing', () => {
    it('serves sitemap.xml with the guides and their real videos, and robots.txt pointing to it', async () => {
      const response = await get('/sitemap.xml');
      expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      const xml = await response.text();
      expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
      const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
      // First the route table's pages marked `sitemap: 'always'`, in its order (payments are off here).
      const listed = PAGES.filter((route) => route.sitemap === 'always').map((route) => `http://localhost:${site.port}${route.path}`);
      expect(locs).toEqual([
        ...listed,
        `http://localhost:${site.port}/levels/3`,
        `http://localhost:${site.port}/levels/10`,
        `http://localhost:${site.port}/levels/11`,
        `http://localhost:${site.port}/levels/20`,
      ]);
      expect(xml.match(/<video:video>/g)).toHaveLength(1);
      expect(xml).toContain('<video:player_loc>https://www.youtube-nocookie.com/embed/abcDEF12345</video:player_loc>');
      const robots = await (await get('/robots.txt')).text();
      expect(robots).toContain(`Sitemap: http://localhost:${site.port}/sitemap.xml`);
      // One file: no parts.
      expect((await get('/sitemap-1.xml')).status).toBe(404);
    });

    it('makes sitemap.xml an index of parts past SITEMAP_MAX_URLS, the same URLs in the same order', async () => {
      const whole = await (await get('/sitemap.xml')).text();
      const locs = (xml: string) => [...xml.matchAll(/<url><loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/^http:\/\/localhost:\d+/, ''));
      const split = await site.startApp({ SITEMAP_MAX_URLS: '5' });
      const fetchSplit = (path: string) => fetch(`${split.url}${path}`);
      const index = await fetchSplit('/sitemap.xml');
      expect(index.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      const xml = await index.text();
      expect(xml).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      const parts = [...xml.matchAll(/<sitemap><loc>http:\/\/localhost:\d+(\/sitemap-\d+\.xml)<\/loc><\/sitemap>/g)].map((m) => m[1]!);
      expect(parts).toEqual(Array.from({ length: Math.ceil(locs(whole).length / 5) }, (_, i) => `/sitemap-${i + 1}.xml`));
      const listed: string[] = [];
      for (const part of parts) {
        const response = await fetchSplit(part);
        expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
        const text = await response.text();
        expect(text).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"');
        expect(locs(text).length).toBeLessThanOrEqual(5);
        listed.push(...locs(text));
      }
      expect(listed).toEqual(locs(whole));
      for (const path of ['/sitemap-0.xml', `/sitemap-${parts.length + 1}.xml`, '/sitemap-x.xml', '/sitemap-01.xml']) expect([path, (await fetchSplit(path)).status]).toEqual([path, 404]);
      expect(await (await fetchSplit('/robots.txt')).text()).toMatch(/Sitemap: http:\/\/localhost:\d+\/sitemap\.xml\n/);
    });

    it('draws a 1200x660 preview image per level, and none for a level without a guide', async () => {
      const image = await get('/og/levels/10.png');
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      const png = Buffer.from(await image.arrayBuffer());
      expect(png.readUInt32BE(16)).toBe(1200);
      expect(png.readUInt32BE(20)).toBe(660);
      expect((await get('/og/levels/15.png')).status).toBe(404);
      expect((await get('/og/default.png')).status).toBe(200);
    });
  });
});
