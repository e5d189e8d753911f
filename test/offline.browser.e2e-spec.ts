import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { guideOf, isNeverCached } from 'web/pwa/caching-rules';
import { CHROMIUM_PATH, hydrated, settled } from './support/browser';
import { poll } from './support/poll';
import { startSite, type Site } from './support/site';

/**
 * The site in front of a proxy that can serve "a newer build": the same service worker with a byte
 * changed, as a deploy changes it (a browser installs a worker whose bytes differ). Everything else
 * goes through as it is. The browser only ever talks to the proxy's origin.
 */
async function startDeployProxy(targetPort: number) {
  let build = 0;
  const server = createServer((incoming, outgoing) => {
    const rewritten = build > 0 && incoming.url?.split('?')[0] === '/sw.js';
    const headers: IncomingHttpHeaders = { ...incoming.headers };
    if (rewritten) {
      // The whole file, uncompressed and not a 304, so that a comment can be added to it.
      headers['accept-encoding'] = 'identity';
      delete headers['if-none-match'];
      delete headers['if-modified-since'];
    }
    const upstream = request({ host: '127.0.0.1', port: targetPort, method: incoming.method, path: incoming.url, headers }, (answer) => {
      if (!rewritten) {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat([...chunks, Buffer.from(`\n// deploy ${build}\n`)]);
        const { etag: _etag, 'last-modified': _modified, 'content-length': _length, ...kept } = answer.headers;
        outgoing.writeHead(answer.statusCode ?? 502, { ...kept, 'content-length': String(body.length) });
        outgoing.end(body);
      });
    });
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    deploy: () => void build++,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Every URL in the page's Cache Storage, by cache: what the service worker kept. */
const cachedUrls = (page: Page) =>
  page.evaluate(async () => {
    const all: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      all[name] = (await (await caches.open(name)).keys()).map((request) => {
        const url = new URL(request.url);
        return url.pathname + url.search;
      });
    }
    return all;
  });
/** The paths in the guides caches (each build's worker has its own: `guides-<build id>`), or in the one named. */
const guidePaths = async (page: Page, cache?: string) =>
  Object.entries(await cachedUrls(page))
    .filter(([name]) => (cache ? name === cache : name.startsWith('guides-')))
    .flatMap(([, paths]) => paths)
    .sort();
const cacheNames = (page: Page) => page.evaluate(() => caches.keys());
const workerState = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    return { controlled: !!navigator.serviceWorker.controller, waiting: !!registration?.waiting, installing: !!registration?.installing };
  });

/** Guides read, and the next two, with their hints and steps, in a real Chromium with the network cut (the fixtures' guides 3, 10, 11, 20 follow each other). */
describe('guides offline, and a new build announced', () => {
  let site: Site;
  let browser: Browser;
  let proxy: Awaited<ReturnType<typeof startDeployProxy>>;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    site = await startSite({ browser: true, env: { CONTENT_DIR: join(__dirname, 'fixtures/content'), HAS_LOGIN: 'true' } });
    browser = site.browser!;
    proxy = await startDeployProxy(site.port);
    context = await browser.newContext({ serviceWorkers: 'allow', viewport: { width: 1280, height: 800 } });
    // axe-core for the prompt's audit, from an init script (the page's CSP does not apply to it).
    await context.addInitScript(await readFile(require.resolve('axe-core/axe.min.js'), 'utf8'));
    page = await context.newPage();
  });

  afterAll(async () => {
    await context?.close();
    await proxy?.close();
    await site?.close();
  });

  const url = (path: string) => `${proxy.url}${path}`;

  it('keeps a guide read and the next two: offline they open with hints and steps, the video replaced by a note', async () => {
    await page.goto(url('/levels/3'));
    await hydrated(page);
    // The worker registers after the page has loaded, takes the page, and keeps guide 3 with the next two.
    await poll(() => workerState(page), 60_000).toMatchObject({ controlled: true });
    await poll(() => guidePaths(page), 60_000).toEqual([
      '/levels/10',
      '/levels/10/_payload.json',
      '/levels/11',
      '/levels/11/_payload.json',
      '/levels/3',
      '/levels/3/_payload.json',
    ]);

    // The build's files are precached, the page chunk map with them: a navigation offline preloads as one online does.
    const precached = Object.entries(await cachedUrls(page)).flatMap(([name, paths]) => (name.startsWith('workbox-precache') ? paths : []));
    expect(precached).toContainEqual(expect.stringMatching(/^\/assets\/page-chunks-[\w-]+\.json\b/));
    expect(precached).toContainEqual(expect.stringMatching(/^\/assets\/helmet-[\w-]+\.js\b/));

    await context.setOffline(true);
    try {
      await page.goto(url('/levels/3'));
      await hydrated(page);
      await page.getByRole('heading', { name: 'Level 3: The Broom Cupboard' }).waitFor();
      // The page's scripts came from the precache: the hint ladder works.
      await page.getByRole('button', { name: 'Show the first hint' }).click();
      await page.getByText('Look behind the broom.').waitFor();
      await page.getByRole('heading', { name: 'Step-by-step solution' }).click();
      await page.getByText('from the hook and open the door').waitFor();

      // The next guide, by its Next link (the router's payload, from the cache): its video is a note offline.
      await page.getByRole('link', { name: /Next/ }).click();
      await page.getByRole('heading', { name: 'Level 10: The Telescope Room' }).waitFor();
      await page.getByText('You are offline: the video needs a connection.').waitFor();
      expect(await page.getByRole('button', { name: /Play the walkthrough video/ }).isVisible()).toBe(false);
      await page.getByText('Show 3 steps').click();
      await page.getByText('Count the stars in the circled constellations.').waitFor();

      await page.goto(url('/levels/11'));
      await page.getByRole('heading', { name: 'Level 11: The Flooded Cellar' }).waitFor();
      await page.getByRole('button', { name: 'Show the first hint' }).waitFor();
    } finally {
      await context.setOffline(false);
    }
  });

  it('shows the offline page for any page not kept, listing the guides that are, with links', async () => {
    await context.setOffline(true);
    try {
      // Each address opened in a tab of its own, as one typed or followed from elsewhere: a stand-in
      // left open keeps trying its own page, and that is not what this test is about.
      let tab = page;
      for (const path of ['/levels/20', '/blog', '/pricing']) {
        tab = await context.newPage();
        await tab.goto(url(path));
        await settled(tab);
        expect(new URL(tab.url()).pathname).toBe(path);
        await tab.getByRole('heading', { name: 'Reading offline' }).waitFor();
        await tab.getByText('You are offline: this page needs a connection.').waitFor();
        const saved = tab.getByRole('region', { name: 'Guides on this device' }).getByRole('link');
        await poll(() => saved.allTextContents()).toEqual(['Level 3: The Broom Cupboard', 'Level 10: The Telescope Room', 'Level 11: The Flooded Cellar']);
        if (path !== '/pricing') await tab.close();
      }
      await tab.getByRole('link', { name: 'Level 11: The Flooded Cellar' }).click();
      await tab.getByRole('heading', { name: 'Level 11: The Flooded Cellar' }).waitFor();
      await tab.close();
    } finally {
      await context.setOffline(false);
    }
  });

  it('keeps "Try again" on the stand-in page, and loads the page asked for once the connection is back', async () => {
    await context.setOffline(true);
    try {
      await page.goto(url('/blog'));
      await hydrated(page);
      const standIn = page.getByTestId('offline-stand-in');
      await standIn.getByText('You are offline: this page needs a connection.').waitFor();
      await standIn.getByRole('button', { name: 'Try again' }).waitFor();
    } finally {
      await context.setOffline(false);
    }
    // Back online: the blog itself, at the same address, with no click.
    await page.getByRole('heading', { name: 'Latest Posts' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/blog');
    // The offline page at its own address stands in for nothing: no banner.
    await page.goto(url('/offline'));
    await hydrated(page);
    await page.getByRole('heading', { name: 'Reading offline' }).waitFor();
    expect(await page.getByTestId('offline-stand-in').count()).toBe(0);
  });

  it('keeps nothing signed in: no API answer, no payment, account or admin page, whatever was opened', async () => {
    const token = await site.signedInUser('reader@example.com');
    await context.addCookies([{ name: 'token', value: token, url: proxy.url }]);
    try {
      for (const path of ['/billing', '/usage', '/pricing', '/tools/image', '/admin', '/auth/login', '/levels/20']) {
        await page.goto(url(path));
        await settled(page);
      }
      // Signed in, the page really asked the API (the account menu's balance, say).
      await page.getByRole('button', { name: 'Account' }).waitFor();
      // A guide read signed in is kept all the same: its HTML is the same for everyone.
      await poll(() => guidePaths(page), 60_000).toContain('/levels/20/_payload.json');
      const everything = Object.values(await cachedUrls(page)).flat();
      const kept = everything.map((path) => path.split('?')[0]!);
      expect(kept.filter((path) => path.startsWith('/api/') || isNeverCached(path))).toEqual([]);
      // Only the build's files, the offline page and guides.
      expect(kept.filter((path) => !path.startsWith('/assets/') && path !== '/favicon.svg' && path !== '/offline' && !guideOf(path))).toEqual([]);
    } finally {
      await context.clearCookies();
    }
  });

  it('announces a new build ("A new version is available · Reload"); Reload hands over to it, which drops what older builds kept', async () => {
    await page.goto(url('/levels/3'));
    await hydrated(page);
    await poll(() => workerState(page), 60_000).toMatchObject({ controlled: true, waiting: false });
    // What an older build's worker would have left: a guide, to be fetched again for the new build, and its cache, to go.
    await page.evaluate(async () => {
      const old = await caches.open('guides-an-older-build');
      await old.put('/levels/20', new Response('<p>an older build</p>', { headers: { 'content-type': 'text/html' } }));
    });
    const current = (await cacheNames(page)).find((name) => name.startsWith('guides-') && name !== 'guides-an-older-build')!;
    await page.evaluate((name) => caches.open(name).then((cache) => cache.delete('/levels/20')), current);
    expect(await guidePaths(page, current)).not.toContain('/levels/20');

    proxy.deploy();
    // The browser looks for a new worker on a page load (and the page every hour).
    await page.reload();
    const prompt = page.getByRole('status').filter({ hasText: 'A new version is available' });
    await prompt.waitFor({ timeout: 60_000 });
    await poll(() => workerState(page)).toMatchObject({ waiting: true });
    const reload = prompt.getByRole('button', { name: 'Reload' });
    await reload.focus();
    expect(await reload.evaluate((button) => button === document.activeElement)).toBe(true);
    // WCAG 2.2 AA as axe-core checks it, on the prompt, in the light and the dark scheme.
    const audit = () =>
      page.evaluate(() =>
        (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string }[] }> } }).axe
          .run({ include: [['[role="status"]']] }, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'] } })
          .then((result) => result.violations.map((violation) => violation.id)),
      );
    expect(await audit()).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await audit()).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    // Installed, the new worker has fetched the guide the older build kept, for itself (same build here: the same cache).
    expect(await guidePaths(page, current)).toContain('/levels/20');

    const reloaded = page.waitForEvent('load');
    await reload.click();
    await reloaded;
    await hydrated(page);
    await poll(() => workerState(page)).toEqual({ controlled: true, waiting: false, installing: false });
    expect(await prompt.count()).toBe(0);
    expect(await cacheNames(page)).not.toContain('guides-an-older-build');
  });

  it('is installable: Chromium finds the manifest, its icons and its start URL fit to install', async () => {
    const profile = await mkdtemp(join(tmpdir(), 'chromium-profile-'));
    // Installability is never reported in an incognito profile, which is what a browser context is.
    const installable = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const tab = await installable.newPage();
      await tab.goto(url('/'));
      const cdp = await installable.newCDPSession(tab);
      // Linked once the page has loaded (web/pwa/pwa-client.ts), not by the HTML.
      await poll(async () => (await cdp.send('Page.getAppManifest')).url).toBe(url('/manifest.webmanifest'));
      expect((await cdp.send('Page.getAppManifest')).errors).toEqual([]);
      await poll(async () => (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors).toEqual([]);
    } finally {
      await installable.close();
      await rm(profile, { recursive: true, force: true });
    }
  });
});
