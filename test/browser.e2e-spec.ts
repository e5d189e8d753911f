import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { ROOT, type RunningApp } from './support/app-process';
import { hydrated, settled } from './support/browser';
import { poll } from './support/poll';
import { startSite, type Site } from './support/site';
import { chunksOfPage, PAGE_CHUNKS_ASSET, type PageChunks } from 'src/contracts/page-data';
import { PAGES } from 'web/route-table';

/** The build's page chunk map (scripts/route-objects.mts) and its URL, as the server reads them. */
async function builtPageChunks(): Promise<{ url: string; map: PageChunks }> {
  const manifest = JSON.parse(await readFile(join(ROOT, 'dist/client/.vite/manifest.json'), 'utf8')) as Record<string, { file: string }>;
  const { file } = manifest[PAGE_CHUNKS_ASSET]!;
  return { url: `/${file}`, map: JSON.parse(await readFile(join(ROOT, 'dist/client', file), 'utf8')) as PageChunks };
}

describe('the site in a real browser', () => {
  let app: RunningApp;
  let browser: Browser;
  let site: Site;

  beforeAll(async () => {
    site = await startSite({ browser: true, publicUrl: false, env: { APP_STORE_URL: 'https://apps.example/x', PLAY_STORE_URL: 'https://play.example/x' } });
    ({ app } = site);
    browser = site.browser!;
  });

  afterAll(() => site?.close());

  /** Opens a page and collects console errors and page errors (CSP violations included). */
  async function open(path: string, options: { colorScheme?: 'light' | 'dark' } = {}) {
    const context = await browser.newContext({ colorScheme: options.colorScheme ?? 'light' });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    const response = await page.goto(`${app.url}${path}`);
    return { page, problems, response, close: () => context.close() };
  }

  it('hydrates the home page with no console error', async () => {
    const { page, problems, response, close } = await open('/');
    try {
      expect(response?.status()).toBe(200);
      await hydrated(page);
      await poll(() => page.title()).toContain('Mystery Doors');
      // Errors come from what the page does after it loads: wait until it has done it.
      await settled(page);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('hydrates a cached page from its JSON data block, runs the theme script allowed by hash, with no CSP violation', async () => {
    // The first visit fills the cache; the second is answered from it (the same bytes for everyone).
    await fetch(`${app.url}/levels/27`);
    const context = await browser.newContext({ colorScheme: 'dark' });
    await context.addInitScript(() => {
      const seen: string[] = ((window as unknown as { violations: string[] }).violations = []);
      document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.effectiveDirective} ${event.blockedURI}`));
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      const response = await page.goto(`${app.url}/levels/27`);
      expect(response?.status()).toBe(200);
      expect(await response?.headerValue('content-security-policy')).not.toContain('nonce-');
      await hydrated(page);
      // The theme script ran before the first paint: it is the one inline script, allowed by its hash.
      await poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      // Client navigation works from the hydrated state (payload JSON, cached too).
      await page.locator('header a[href="/levels"]').first().click();
      await page.waitForURL(`${app.url}/levels`);
      await settled(page);
      await poll(() => page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('blocks an inline script injected into a page: the CSP allows no inline script but its own', async () => {
    const context = await browser.newContext();
    await context.addInitScript(() => {
      const seen: string[] = ((window as unknown as { violations: string[] }).violations = []);
      document.addEventListener('securitypolicyviolation', (event) => seen.push(event.effectiveDirective));
    });
    const page = await context.newPage();
    // As an injection through the HTML would arrive: in the page's bytes, under the page's own CSP header.
    await page.route(`${app.url}/levels/27`, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace('</body>', '<script>window.injected = true</script></body>');
      await route.fulfill({ response, body: html });
    });
    try {
      await page.goto(`${app.url}/levels/27`);
      await hydrated(page);
      await poll(() => page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
      await poll(() => page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual(['script-src-elem']);
    } finally {
      await context.close();
    }
  });

  it('shows the API documentation (Swagger UI) with no CSP violation', async () => {
    const { page, problems, close } = await open('/api/docs');
    try {
      await page.getByText('/api/v1/levels/{number}').first().waitFor();
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('shows no login UI while accounts are off, and sends /auth pages home', async () => {
    const { page, close } = await open('/auth/signup');
    try {
      expect(new URL(page.url()).pathname).toBe('/');
      await hydrated(page);
      await poll(() => page.getByRole('banner').getByRole('button', { name: 'Sign in' }).count()).toBe(0);
      await poll(() => page.getByLabel('Account').count()).toBe(0);
    } finally {
      await close();
    }
  });

  it('validates the header search in place and navigates without a full reload', async () => {
    const { page, problems, close } = await open('/');
    try {
      await hydrated(page);
      await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
      const input = page.locator('header form input');

      await page.locator('header form button[type=submit]').click();
      await poll(() => page.locator('header [role=alert]').textContent()).toBe('Please enter a level number');
      await input.fill('636');
      await input.press('Enter');
      await poll(() => page.locator('header [role=alert]').textContent()).toBe('Invalid level number');
      expect(page.url()).toBe(`${app.url}/`);

      // A valid number: the level's payload JSON is fetched and the page changes in place.
      const payload = page.waitForResponse((r) => r.url().endsWith('/levels/27/_payload.json'));
      await input.fill('27');
      await input.press('Enter');
      expect((await payload).status()).toBe(200);
      await page.getByRole('heading', { name: 'Level 27: The Locked Observatory' }).waitFor();
      expect(page.url()).toBe(`${app.url}/levels/27`);
      await poll(() => input.inputValue()).toBe('');
      await poll(() => page.title()).toContain('Level 27');
      await poll(() => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

      // An unknown page reached by navigation shows the 404 page; 'Back Home' clears it with a full load.
      await page.evaluate(() => window.history.pushState(null, '', '/'));
      await page.goto(`${app.url}/no/such/page`);
      await page.getByText('Page not found: /no/such/page').waitFor();
      await page.getByRole('link', { name: 'Back Home' }).click();
      await page.waitForURL(`${app.url}/`);
      await page.getByRole('heading', { name: /Stuck on a level/ }).waitFor();
      expect(problems.filter((p) => !p.includes('404'))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('reveals hints one at a time, remembers them after a reload, and keeps the answer folded', async () => {
    // A guide with one ladder (level 27 is in puzzles: test/guide-puzzles.browser.e2e-spec.ts).
    const { page, problems, close } = await open('/levels/2');
    try {
      // The ladder's code included (settled: no part of the page still aria-busy).
      await settled(page);
      const hints = page.locator('section[aria-labelledby="hints-title"] ol > li:visible');
      await poll(() => hints.count()).toBe(0);
      await page.getByRole('button', { name: 'Show the first hint' }).click();
      await hints.nth(0).waitFor();
      await page.getByRole('button', { name: 'Show hint 2 of 3' }).click();
      await hints.nth(1).waitFor();
      await poll(() => hints.count()).toBe(2);
      await poll(() => page.getByText('2 of 3 revealed').isVisible()).toBe(true);

      // After a reload the remembered hints are there from the first paint, before any module runs.
      let releaseScripts = () => undefined as void;
      const scriptsHeld = new Promise<void>((resolve) => (releaseScripts = resolve));
      await page.route('**/assets/*.js', async (route) => {
        await scriptsHeld;
        await route.continue();
      });
      await page.reload({ waitUntil: 'commit' });
      await page.getByRole('heading', { name: 'Step-by-step solution' }).waitFor();
      await poll(() => hints.count()).toBe(2);
      releaseScripts();
      await hydrated(page);
      await page.unroute('**/assets/*.js');
      await poll(() => hints.count()).toBe(2);
      await poll(() => page.getByRole('button', { name: 'Show hint 3 of 3' }).isVisible()).toBe(true);

      // The step-by-step solution stays folded until asked for.
      const firstStep = page.getByText('hanging on the pegboard above the workbench', { exact: false });
      await poll(() => firstStep.isVisible()).toBe(false);
      await page.getByRole('heading', { name: 'Step-by-step solution' }).click();
      await poll(() => firstStep.isVisible()).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('shows a sample guide (placeholder video) with no play button and no moment links: the video is coming, the text guide stands alone', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const thirdParty: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(app.url)) thirdParty.push(request.url());
    });
    try {
      await page.goto(`${app.url}/levels/27`);
      await settled(page);
      await page.getByText('The video walkthrough for this level is coming.', { exact: false }).waitFor();
      await poll(() => page.getByRole('button', { name: /Play the walkthrough video/ }).count()).toBe(0);
      await poll(() => page.getByRole('link', { name: 'Jump to the video' }).count()).toBe(0);
      await page.getByText(/^Show \d+ steps$/).click();
      await page.locator('main ol li').first().waitFor();
      await poll(() => page.getByRole('button', { name: /^Watch at / }).count()).toBe(0);
      expect(thirdParty).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('serves a sitemap that parses as XML and JSON-LD that parses as JSON', async () => {
    const { page, close } = await open('/levels');
    try {
      const result = await page.evaluate(async () => {
        const xml = new DOMParser().parseFromString(await (await fetch('/sitemap.xml')).text(), 'application/xml');
        const scripts = [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) => JSON.parse(s.textContent!));
        return {
          parseError: xml.getElementsByTagName('parsererror').length,
          urls: xml.getElementsByTagNameNS('http://www.sitemaps.org/schemas/sitemap/0.9', 'url').length,
          types: scripts.map((data) => data['@type']),
          items: scripts[0]?.itemListElement?.length,
        };
      });
      expect(result.parseError).toBe(0);
      // The route table's pages marked `sitemap: 'always'` (home, levels, blog, FAQ, ...); 4 categories
      // and 3 months; 3 posts; the 4 content pages other than the refund policy (payments are off); the 32 guides.
      expect(result.urls).toBe(PAGES.filter((route) => route.sitemap === 'always').length + 4 + 3 + 3 + 4 + 32);
      expect(result.types).toEqual(['ItemList']);
      expect(result.items).toBe(24);
    } finally {
      await close();
    }
  });

  it('retries a failed vote once, reports the 5xx, and shows a red toast when the network fails', async () => {
    const { page, close } = await open('/levels/28');
    try {
      await hydrated(page);
      const reports: { error: { error_type: string; message: string; path: string } }[] = [];
      await page.route('**/api/v1/log_client_error', async (route) => {
        reports.push(route.request().postDataJSON());
        await route.fulfill({ status: 204 });
      });
      let attempts = 0;
      await page.route('**/api/v1/levels/28/guide_requests', async (route) => {
        attempts++;
        if (attempts === 1) await route.fulfill({ status: 503, contentType: 'application/json', body: '{"errors":["busy"],"code":"HTTP.503"}' });
        else await route.fulfill({ status: 201, contentType: 'application/json', body: '{"counted":true,"requests":3}' });
      });
      await page.getByRole('button', { name: 'Request this guide' }).click();
      await page.getByText('you and 2 other players want this guide').waitFor();
      expect(attempts).toBe(2);
      expect(reports).toEqual([
        { error: expect.objectContaining({ error_type: 'API_ERROR', message: 'POST /api/v1/levels/28/guide_requests answered 503', path: '/levels/28' }) },
      ]);

      // A network failure: the toast 'fetch exception:' in red; it stays while hovered.
      await page.evaluate(() => localStorage.removeItem('guide-requested:28'));
      await page.reload();
      await hydrated(page);
      await page.clock.install();
      await page.route('**/api/v1/levels/28/guide_requests', (route) => route.abort('failed'));
      await page.getByRole('button', { name: 'Request this guide' }).click();
      const toast = page.locator('[data-toast="red"]');
      await toast.waitFor();
      await poll(() => toast.textContent()).toMatch(/^fetch exception: /);
      await toast.hover();
      await page.clock.runFor(5_000);
      await poll(() => toast.isVisible()).toBe(true);
      await page.mouse.move(0, 0);
      await page.clock.runFor(2_100);
      await toast.waitFor({ state: 'detached' });
    } finally {
      await close();
    }
  });

  it('reports an uncaught error of the page once, as CLIENT_ERROR with the build id', async () => {
    const { page, close } = await open('/');
    try {
      await hydrated(page);
      const reports: { error: Record<string, unknown> }[] = [];
      await page.route('**/api/v1/log_client_error', async (route) => {
        reports.push(route.request().postDataJSON());
        await route.fulfill({ status: 204 });
      });
      const first = page.waitForRequest('**/api/v1/log_client_error');
      await page.evaluate(() => {
        setTimeout(() => {
          throw new Error('boom from a timer');
        });
        setTimeout(() => {
          throw new Error('boom from a timer');
        });
      });
      await first;
      // Give a second report the time to show up, if the page wrongly sent one.
      await page.waitForTimeout(300);
      expect(reports).toHaveLength(1);
      expect(reports[0]!.error).toMatchObject({ error_type: 'CLIENT_ERROR', origin_type: 1, path: '/', build_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
      expect(String(reports[0]!.error.message)).toContain('boom from a timer');
    } finally {
      await close();
    }
  });

  it('shows the loading bar only for a navigation slower than 200 ms, then hides and resets it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.clock.install();
      await page.goto(`${app.url}/levels/27`);
      await hydrated(page);
      // From here the page's time only moves with runFor: a slow machine cannot fire the 200 ms timer early.
      await page.clock.pauseAt(Date.now() + 1_000);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/levels/30/_payload.json', async (route) => {
        await held;
        await route.continue();
      });
      const bar = page.getByRole('progressbar', { includeHidden: true });
      await poll(() => bar.getAttribute('data-phase')).toBe('idle');
      await page.getByRole('link', { name: /Next/ }).click();
      await page.clock.runFor(150);
      await poll(() => bar.getAttribute('data-phase')).toBe('idle');
      await page.clock.runFor(100);
      await poll(() => bar.getAttribute('data-phase')).toBe('running');
      await poll(() => bar.evaluate((el) => getComputedStyle(el).height)).toBe('3px');
      release();
      await page.getByRole('heading', { name: /^Level 30/ }).waitFor();
      await page.clock.runFor(10);
      await poll(() => bar.getAttribute('data-phase')).toBe('done');
      await page.clock.runFor(500);
      await poll(() => bar.getAttribute('data-phase')).toBe('resetting');
      await page.clock.runFor(400);
      await poll(() => bar.getAttribute('data-phase')).toBe('idle');
    } finally {
      await context.close();
    }
  });

  it('loads the whole page on the next navigation once a new build is deployed', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.clock.install();
      await page.goto(`${app.url}/levels/27`);
      await hydrated(page);
      await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
      const checks: string[] = [];
      await page.route('**/builds/latest.json*', async (route) => {
        checks.push(route.request().url());
        await route.fulfill({ contentType: 'application/json', body: '{"id":"a-newer-build"}' });
      });
      const checked = page.waitForResponse((response) => response.url().includes('/builds/latest.json'));
      // The check starts once the page has loaded and the browser is idle (web/pwa/pwa-client.ts, with no
      // service worker here), then runs every 60 minutes: the page's time moves an hour at a time until it has.
      await poll(async () => {
        await page.clock.runFor(60 * 60 * 1000);
        return checks.length;
      }).toBeGreaterThan(0);
      await checked;
      expect(checks[0]).toMatch(/\/builds\/latest\.json\?t=\d+$/);
      await page.getByRole('link', { name: /Next/ }).click();
      await page.waitForURL(`${app.url}/levels/30`);
      await page.getByRole('heading', { name: /^Level 30/ }).waitFor();
      await poll(() => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBeUndefined();
    } finally {
      await context.close();
    }
  });

  it('reloads once for a page chunk that fails to load, and not again within 10 s', async () => {
    // The content pages' chunk (the legal pages) is gone, as after a deploy.
    const chunk = chunksOfPage((await builtPageChunks()).map, 'page')[0]!.slice(1);
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      // Date.now() only moves when the test says so; timers still run.
      const start = Date.now();
      await page.clock.setFixedTime(start);
      // The chunk's 404 can be held until the click has started the navigation: a link in view
      // (or hovered) prefetches its page, and the click must then wait for that same attempt.
      let chunkRequests = 0;
      let held: Promise<void> = Promise.resolve();
      let release = () => undefined as void;
      const hold = () => (held = new Promise<void>((resolve) => (release = resolve)));
      await page.route(`**/${chunk}`, async (route) => {
        chunkRequests++;
        await held;
        await route.fulfill({ status: 404, body: 'gone' });
      });
      await page.goto(`${app.url}/levels`);
      await hydrated(page);
      let loads = 0;
      page.on('load', () => loads++);
      const legal = page.locator('footer a[href="/privacy-policy"]');
      const marked = () => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument);
      const mark = () => page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

      // A failed prefetch (the link hovered, not clicked) reloads nothing: the visitor may be reading.
      await mark();
      const prefetchFailed = page.waitForResponse((response) => response.url().endsWith(chunk));
      await legal.hover();
      expect((await prefetchFailed).status()).toBe(404);
      await page.getByRole('heading', { name: /^All Mystery Doors levels/ }).waitFor();
      expect(loads).toBe(0);
      await expect(marked()).resolves.toBe(true);

      // The first failure of a navigation reloads the page the visitor is on.
      const reloaded = page.waitForEvent('load');
      hold();
      await legal.click();
      release();
      await reloaded;
      expect(loads).toBe(1);
      expect(chunkRequests).toBeGreaterThan(0);
      expect(page.url()).toBe(`${app.url}/levels`);
      await expect(marked()).resolves.toBeUndefined();
      await hydrated(page);

      // 6 s later, the chunk fails again: no second reload, and the visitor stays on the page,
      // which still navigates in place...
      await page.clock.setFixedTime(start + 6_000);
      await mark();
      const failedAgain = page.waitForResponse((response) => response.url().endsWith(chunk));
      hold();
      await legal.click();
      release();
      expect((await failedAgain).status()).toBe(404);
      await page.locator('footer a[href="/levels/27"]').click();
      await page.getByRole('heading', { name: /^Level 27/ }).waitFor();
      // ...and the failed navigation left nothing behind: Back returns to the list, not to /privacy-policy.
      await page.goBack();
      await page.getByRole('heading', { name: /^All Mystery Doors levels/ }).waitFor();
      expect(page.url()).toBe(`${app.url}/levels`);
      await expect(marked()).resolves.toBe(true);
      expect(loads).toBe(1);

      // 10 s after the reload, a new failure reloads again.
      await page.clock.setFixedTime(start + 10_000);
      const reloadedAgain = page.waitForEvent('load');
      hold();
      await legal.click();
      release();
      await reloadedAgain;
      expect(loads).toBe(2);
      expect(page.url()).toBe(`${app.url}/levels`);
      await expect(marked()).resolves.toBeUndefined();

      // Once the chunk is back, the link simply works.
      await page.unroute(`**/${chunk}`);
      await hydrated(page);
      await legal.click();
      await page.waitForURL(`${app.url}/privacy-policy`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(loads).toBe(2);
    } finally {
      await context.close();
    }
  });

  it('opens and closes the mobile menu by button, Escape, route change and theme change', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(`${app.url}/`);
      await hydrated(page);
      const menu = page.locator('#mobile-menu');
      const toggle = page.getByRole('button', { name: 'Open menu' });
      await toggle.click();
      await poll(() => menu.isVisible()).toBe(true);
      await poll(() => page.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });

      await toggle.click();
      await page.getByRole('button', { name: /Switch to (dark|light) mode/ }).click();
      await menu.waitFor({ state: 'detached' });

      await toggle.click();
      await menu.getByRole('link', { name: 'Levels' }).click();
      await page.waitForURL(`${app.url}/levels`);
      await menu.waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });

  it('prefetches the pages of links in view, at most 4 at a time, and the next click uses them', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    let inFlight = 0;
    let maxInFlight = 0;
    const prefetched = new Set<string>();
    const requests = new Map<string, number>();
    await page.route('**/_payload.json*', async (route) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      // With the query: a guide in puzzles prefetches its steps' payload (`?steps=1`) too, another payload.
      const { pathname, search } = new URL(route.request().url());
      const path = pathname + search;
      prefetched.add(path);
      requests.set(path, (requests.get(path) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 150));
      await route.continue();
      inFlight--;
    });
    try {
      await page.goto(`${app.url}/levels`);
      await hydrated(page);
      await page.waitForResponse((r) => r.url().endsWith('/_payload.json'));
      expect(prefetched.size).toBeGreaterThan(0);
      expect(maxInFlight).toBeLessThanOrEqual(4);
      // A link further down (the footer's "Level 233") is prefetched once it scrolls into view.
      const target = page.locator('footer a[href="/levels/233"]');
      expect(prefetched.has('/levels/233/_payload.json')).toBe(false);
      const fetched = page.waitForResponse((r) => r.url().endsWith('/levels/233/_payload.json'));
      await target.scrollIntoViewIfNeeded();
      await fetched;
      await target.click();
      await page.getByRole('heading', { name: /^Level 233/ }).waitFor();
      // The click used the prefetched payload: no second request for it (the new page may
      // prefetch its own links meanwhile, so only this path is counted).
      expect(requests.get('/levels/233/_payload.json')).toBe(1);
    } finally {
      await context.close();
    }
  });

  it("renders the first page without the page chunk map or Helmet, fetches the map once for the pages that follow, preloads each one's chunks from it and replaces the head tags", async () => {
    const { url, map } = await builtPageChunks();
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    // The map is held until the first page has hydrated, Helmet until a link is clicked: the first page waits for neither.
    let mapRequests = 0;
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**${url}`, async (route) => {
      mapRequests++;
      await held;
      await route.continue();
    });
    let releaseHelmet = () => undefined as void;
    const helmetHeld = new Promise<void>((resolve) => (releaseHelmet = resolve));
    await page.route('**/assets/helmet-*.js', async (route) => {
      await helmetHeld;
      await route.continue();
    });
    try {
      const response = await page.goto(`${app.url}/levels/27`);
      const html = await response!.text();
      // The HTML names the map, not its files; it preloads the level page's own chunks.
      const hydration = JSON.parse(/<script type="application\/json" id="__page">(.*?)<\/script>/s.exec(html)![1]!) as { root: Record<string, unknown> };
      expect(hydration.root).toEqual(expect.objectContaining({ pageChunks: url }));
      expect(Object.keys(hydration.root).sort()).toEqual(['buildId', 'config', 'pageChunks']);
      for (const href of chunksOfPage(map, 'level')) expect(html).toContain(`<link rel="modulepreload" href="${href}"/>`);
      expect(html).not.toContain(chunksOfPage(map, 'blog')[0]);
      await hydrated(page);
      release();

      // A navigation to a page of other chunks: each is preloaded from the map, fetched once.
      await page.locator('header a[href="/levels"]').first().click();
      releaseHelmet();
      await page.getByRole('heading', { name: /^All Mystery Doors levels/ }).waitFor();
      // The first page's head tags, the server's, gave way to the next page's: the navigation waited for Helmet to take them over.
      const head = () =>
        page.evaluate(() => ({
          titles: [...document.querySelectorAll('title')].map((title) => title.textContent),
          descriptions: document.querySelectorAll('meta[name=description]').length,
          canonicals: [...document.querySelectorAll('link[rel=canonical]')].map((link) => new URL(link.getAttribute('href')!).pathname),
          ogUrls: [...document.querySelectorAll('meta[property="og:url"]')].map((meta) => new URL(meta.getAttribute('content')!).pathname),
        }));
      await poll(head).toEqual({ titles: [expect.stringMatching(/^All Mystery Doors Levels/)], descriptions: 1, canonicals: ['/levels'], ogUrls: ['/levels'] });
      await page.goto(`${app.url}/blog`).then(() => hydrated(page));
      await page.locator('footer a[href="/terms-of-service"]').click();
      await page.getByRole('heading', { name: 'Terms of Service' }).waitFor();
      const preloaded = await page.evaluate(() => [...document.querySelectorAll('link[rel=modulepreload]')].map((link) => link.getAttribute('href')));
      expect(preloaded).toEqual(expect.arrayContaining(chunksOfPage(map, 'page')));
      // One map per page load: the /levels navigation's, then the /blog page's.
      expect(mapRequests).toBe(2);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('scrolls to the top after a navigation, and back restores the list', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 700 } });
    const page = await context.newPage();
    try {
      await page.goto(`${app.url}/levels`);
      await hydrated(page);
      const card = page.locator('main a[href="/levels/99"]');
      await card.scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
      await card.click();
      await page.getByRole('heading', { name: /^Level 99/ }).waitFor();
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await page.goBack();
      await page.getByRole('heading', { name: /^All Mystery Doors levels/ }).waitFor();
      expect(page.url()).toBe(`${app.url}/levels`);
    } finally {
      await context.close();
    }
  });

  it('scrolls to the top after a plain navigation (the hash case: level-video.browser.e2e-spec)', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 700 } });
    const page = await context.newPage();
    try {
      await page.goto(`${app.url}/levels/30`);
      await hydrated(page);
      const previous = page.locator('main a[rel="prev"]');
      await previous.scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
      await previous.click();
      await page.getByRole('heading', { name: /^Level 27/ }).waitFor();
      await page.waitForFunction(() => window.scrollY === 0);

      // From there, a plain link goes to the top of the next page again.
      await page.locator('main a[rel="next"]').click();
      await page.getByRole('heading', { name: /^Level 30/ }).waitFor();
      await page.waitForFunction(() => window.scrollY === 0);
    } finally {
      await context.close();
    }
  });

  it("puts the visitor's own store first on /download", async () => {
    for (const [userAgent, first] of [
      ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/156.0 Mobile Safari/537.36', 'android'],
      ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148', 'ios'],
    ] as const) {
      const context = await browser.newContext({ userAgent });
      const page = await context.newPage();
      await page.goto(`${app.url}/download`);
      await hydrated(page);
      await poll(() => page.locator('[data-store]').first().getAttribute('data-store')).toBe(first);
      await context.close();
    }
  });

  it('shows the dark theme from the first paint when the system prefers dark, and remembers a choice', async () => {
    const { page, close } = await open('/', { colorScheme: 'dark' });
    try {
      // The class is set by the inline head script, before any bundle runs.
      await poll(() => page.evaluate(() => document.documentElement.className)).toContain('dark');
      await hydrated(page);
      await page.getByRole('button', { name: 'Switch to light mode' }).click();
      await poll(() => page.evaluate(() => localStorage.getItem('nuxt-color-mode'))).toBe('light');
      await page.reload();
      await poll(() => page.evaluate(() => document.documentElement.className)).not.toContain('dark');
    } finally {
      await close();
    }
  });
});
