import type { BrowserContext, Page } from 'playwright-core';
import { pictureUrls } from '../web/pwa/offline-guides';
import { hydrated, isHydrated } from './support/browser';
import { startBrowserSite, type BrowserSite } from './support/browser-site';
import { poll } from './support/poll';

/**
 * A guide in puzzles as a player meets it (the sample's /levels/27): "Where are you stuck?", one
 * ladder per puzzle with its own reveal state (before and after hydration, with and without
 * JavaScript), "Still stuck" on the puzzle in view, the extras folded, step pictures with their marks.
 */
describe('guides in puzzles in a real browser', () => {
  let site: BrowserSite;
  let phone: BrowserContext;

  beforeAll(async () => {
    site = await startBrowserSite({});
    phone = await site.browser.newContext({ viewport: { width: 390, height: 844 } });
  });

  afterAll(async () => {
    await phone?.close();
    await site?.close();
  });

  const url = (path: string) => `${site.app.url}${path}`;
  const shown = (page: Page, puzzle: string) => page.locator(`#puzzle-${puzzle} li[data-hint]:not([hidden])`).count();
  const open = (page: Page, puzzle: string) => page.locator(`#puzzle-${puzzle}`).evaluate((details) => (details as HTMLDetailsElement).open);
  /** Holds the folded parts' chunk back, as a slow connection does, until the returned function is called. */
  const holdFoldedParts = async (page: Page) => {
    let release!: () => void;
    const held = new Promise<void>((done) => (release = done));
    await page.route('**/assets/folded-parts.client-*.js', async (route) => {
      await held;
      await route.continue();
    });
    return release;
  };

  it('keeps "Where are you stuck?" on the page while its code is still coming, with nothing moving below it', async () => {
    const page = await phone.newPage();
    await page.addInitScript(() => {
      const shifts: number[] = [];
      (window as unknown as { shifts: number[] }).shifts = shifts;
      new PerformanceObserver((list) => list.getEntries().forEach((entry) => shifts.push((entry as unknown as { value: number }).value))).observe({ type: 'layout-shift', buffered: true });
    });
    // The folded parts' chunk held back: the page hydrates (and the session arrives) before it.
    const release = await holdFoldedParts(page);
    try {
      await page.goto(url('/levels/27'));
      await hydrated(page);
      const picker = page.getByRole('heading', { name: 'Where are you stuck?' });
      await picker.waitFor();
      await page.waitForTimeout(300); // what a slow connection gives the page before the chunk: nothing is to change
      expect(await picker.isVisible()).toBe(true);
      release();
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' }).catch(() => undefined);
      await poll(() => page.locator('#puzzle-dome-code').count()).toBe(1);
      expect(await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts.reduce((sum, value) => sum + value, 0))).toBe(0);
    } finally {
      release();
      await page.close();
    }
  });

  it('keeps a puzzle opened while its code is still coming open when the code arrives, and its ladder works', async () => {
    // A visitor of its own: the hint revealed here is remembered in the browser.
    const visitor = await site.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await visitor.newPage();
    const release = await holdFoldedParts(page);
    // Helmet comes after hydration and changes a context above the parts still waiting for their chunk.
    const helmet = page.waitForEvent('requestfinished', (request) => /\/assets\/helmet-[\w-]+\.js/.test(request.url()));
    try {
      await page.goto(url('/levels/27'));
      await hydrated(page);
      await helmet;
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      // The reader opens a question before the code: plain <details>.
      await page.locator('#puzzle-dome-code > summary').click();
      await poll(() => open(page, 'dome-code')).toBe(true);
      release();
      // The code arrives and hydrates the part with the puzzle still open; then its ladder answers.
      const firstHint = page.locator('#puzzle-dome-code').getByRole('button', { name: 'Show the first hint' });
      await poll(() => isHydrated(firstHint)).toBe(true);
      expect(await open(page, 'dome-code')).toBe(true);
      await firstHint.click();
      await poll(() => shown(page, 'dome-code')).toBe(1);
      expect(await open(page, 'dome-code')).toBe(true);
    } finally {
      release();
      await visitor.close();
    }
  });

  it('answers a tap on a hint button given while its code is still coming once the code arrives, one hint for two taps', async () => {
    // A visitor of its own: the hint revealed here is remembered in the browser.
    const visitor = await site.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await visitor.newPage();
    const release = await holdFoldedParts(page);
    try {
      await page.goto(url('/levels/27'));
      await hydrated(page);
      await page.locator('#puzzle-dome-code > summary').click();
      await poll(() => open(page, 'dome-code')).toBe(true);
      // Tapped twice, as a reader does when nothing happens: React cannot answer without the code.
      const firstHint = page.locator('#puzzle-dome-code').getByRole('button', { name: 'Show the first hint' });
      await firstHint.click();
      await firstHint.click();
      expect(await shown(page, 'dome-code')).toBe(0);
      release();
      await poll(() => shown(page, 'dome-code')).toBe(1);
      const nextHint = page.locator('#puzzle-dome-code').getByRole('button', { name: /^Show hint 2 of \d+$/ });
      await poll(() => isHydrated(nextHint)).toBe(true);
      expect(await shown(page, 'dome-code')).toBe(1);
    } finally {
      release();
      await visitor.close();
    }
  });

  it('opens one puzzle at a time and keeps each ladder its own reveal state, after a reload and before any module runs', async () => {
    const page = await phone.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    const pictures: string[] = [];
    page.on('request', (request) => request.url().includes('/guide-images/') && pictures.push(request.url()));
    await page.goto(url('/levels/27'));
    await hydrated(page);
    await page.getByRole('heading', { name: 'Where are you stuck?' }).waitFor();
    await page.locator('#puzzle-dome-code > summary').click();
    await page.locator('#puzzle-dome-code').getByRole('button', { name: 'Show the first hint' }).click();
    await page.locator('#puzzle-dome-code').getByRole('button', { name: 'Show hint 2 of 3' }).click();
    await poll(() => shown(page, 'dome-code')).toBe(2);
    // Choosing another question shows only that ladder, with its own state.
    await page.locator('#puzzle-telescope > summary').click();
    await poll(() => open(page, 'dome-code')).toBe(false);
    expect(await shown(page, 'telescope')).toBe(0);
    // The extras are folded after the main escape, not among its questions.
    expect(await page.locator('#where-stuck').getByText('Where is the bonus shooting star?').count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Extras' }).isVisible()).toBe(true);
    expect(await page.locator('#puzzle-shooting-star > summary').isVisible()).toBe(true);
    expect(await open(page, 'shooting-star')).toBe(false);
    // The pictures are in the folded solution: nothing of them loaded yet.
    expect(pictures).toEqual([]);

    await page.reload();
    await hydrated(page);
    await page.locator('#puzzle-dome-code > summary').click();
    expect(await shown(page, 'dome-code')).toBe(2);
    expect(problems).toEqual([]);

    // Before any module runs: the inline script draws the same state.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.reload();
    await page.locator('#puzzle-dome-code > summary').click();
    expect(await shown(page, 'dome-code')).toBe(2);
    expect(await shown(page, 'telescope')).toBe(0);
    await page.close();
  });

  it('offers the next rung of the puzzle in view on "Still stuck"', async () => {
    const page = await phone.newPage();
    await page.goto(url('/levels/27'));
    await hydrated(page);
    await page.getByRole('button', { name: 'Still stuck' }).click();
    await page.getByRole('button', { name: 'Pick where you are stuck' }).click();
    await page.locator('#puzzle-telescope > summary').click();
    await page.getByRole('button', { name: 'Show the next hint' }).click();
    await poll(() => shown(page, 'telescope')).toBe(1);
    // The other ladder keeps its own state (two hints, from the test above: the same browser).
    expect(await shown(page, 'dome-code')).toBe(2);
    await page.close();
  });

  it('works without JavaScript: every question opens, each hint its own fold', async () => {
    const context = await site.browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(url('/levels/27'));
      await page.locator('#puzzle-dome-code > summary').click();
      expect(await open(page, 'dome-code')).toBe(true);
      const hint = page.locator('#puzzle-dome-code details', { hasText: 'Hint 2' });
      await hint.locator('summary').click();
      expect(await hint.evaluate((details) => (details as HTMLDetailsElement).open)).toBe(true);
      expect(await hint.getByText('count the stars in each').isVisible()).toBe(true);
      // Hint 3 stays folded: a nudge at a time, the player decides.
      expect(await page.locator('#puzzle-dome-code details', { hasText: 'Hint 3' }).getByText('Kite, Lantern, Crown').isVisible()).toBe(false);
      // The steps are a link to their page, which the server renders with them.
      await page.locator('a#solution-steps').click();
      await page.waitForURL(/\?steps=1#solution-steps$/);
      expect(await page.locator('#solution-steps img').count()).toBe(6);
      expect(await page.getByRole('img', { name: 'Tap here: the dial lock' }).count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('shows the step pictures with their marks, announced to screen readers, once the steps are opened (their page, in place)', async () => {
    const page = await phone.newPage();
    await page.goto(url('/levels/27'));
    await hydrated(page);
    // The first view holds the steps back: no picture in the page until they are asked for.
    expect(await page.locator('img[src^="/guide-images/"]').count()).toBe(0);
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await page.locator('a#solution-steps').click();
    await page.waitForURL(/\/levels\/27\?steps=1#solution-steps$/);
    const first = page.locator('#solution-steps img').first();
    await first.scrollIntoViewIfNeeded();
    await poll(() => first.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    // The router brought the steps' payload: the same document, no full load.
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(await page.getByRole('img', { name: 'Tap here: the globe' }).count()).toBe(1);
    expect(await page.locator('#solution-steps img').count()).toBe(6);
    // Width and height set: the box is the picture's shape before it loads.
    expect(await page.locator('#solution-steps img').nth(5).getAttribute('width')).toBe('1200');
    await page.close();
  });

  it('keeps the steps and their pictures of a guide read, for reading offline', async () => {
    const context = await site.browser.newContext({ serviceWorkers: 'allow', viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      await page.goto(url('/levels/27'));
      await hydrated(page);
      await poll(() => page.evaluate(() => !!navigator.serviceWorker.controller), 60_000).toBe(true);
      const kept = () =>
        page.evaluate(async () => {
          const urls: string[] = [];
          for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname + new URL(request.url).search);
          return urls;
        });
      await poll(async () => (await kept()).includes('/levels/27/_payload.json?steps=1'), 60_000).toBe(true);
      // Every picture of the guide, not the first: the worker keeps them side by side, each when it arrives.
      const pictures27 = pictureUrls(await (await fetch(url('/levels/27/_payload.json?steps=1'))).json());
      expect(pictures27).toHaveLength(6);
      await poll(async () => {
        const urls = await kept();
        return pictures27.filter((path) => !urls.includes(path));
      }, 60_000).toEqual([]);
      await context.setOffline(true);
      await page.goto(url('/levels/27?steps=1'));
      await hydrated(page);
      await page.getByRole('heading', { name: 'What is the code for the dome door?', level: 3 }).waitFor();
      const pictures = page.locator('#solution-steps img');
      expect(await pictures.count()).toBe(6);
      for (let i = 0; i < 6; i++) {
        await pictures.nth(i).scrollIntoViewIfNeeded();
        await poll(() => pictures.nth(i).evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      }
    } finally {
      await context.close();
    }
  });
});
