import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { RunningApp } from './support/app-process';
import { settled } from './support/browser';
import { startSite, type Site } from './support/site';
import { poll } from './support/poll';

/** A guide with a real walkthrough video (the test fixtures' level 10), as a player meets it. */
describe('a real walkthrough video in a real browser', () => {
  let site: Site;
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    site = await startSite({ browser: true, publicUrl: false, env: { CONTENT_DIR: join(__dirname, 'fixtures/content') } });
    ({ app } = site);
    browser = site.browser!;
  });

  afterAll(() => site?.close());

  it('loads nothing from YouTube until asked; "Watch at" opens the player at that moment; the jump link scrolls in place below the header', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 700 } });
    const page = await context.newPage();
    const thirdParty: string[] = [];
    // Nothing leaves the machine: YouTube's answers are stubbed, the requests counted.
    await page.route(/youtube/, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>player</p>' }));
    page.on('request', (request) => {
      if (!request.url().startsWith(app.url)) thirdParty.push(request.url());
    });
    try {
      await page.goto(`${app.url}/levels/10`);
      await settled(page);
      expect(thirdParty).toEqual([]);

      await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
      await page.getByRole('link', { name: 'Jump to the video' }).click();
      await page.waitForURL(`${app.url}/levels/10#walkthrough`);
      await page.waitForFunction(() => {
        const target = document.getElementById('walkthrough')!.getBoundingClientRect();
        const header = document.querySelector('header')!.getBoundingClientRect();
        return window.scrollY > 0 && target.top >= header.bottom - 1 && target.top < window.innerHeight;
      });
      await poll(() => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
      await page.getByRole('button', { name: /Play the walkthrough video/ }).waitFor();
      expect(thirdParty).toEqual([]);

      await page.getByText('Show 3 steps').click();
      await page.getByRole('button', { name: 'Watch at 1:20' }).click();
      await poll(() => page.locator('#walkthrough iframe').getAttribute('src')).toBe(
        'https://www.youtube-nocookie.com/embed/abcDEF12345?autoplay=1&rel=0&start=80',
      );
    } finally {
      await context.close();
    }
  });
});
