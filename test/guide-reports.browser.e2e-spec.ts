import type { Browser } from 'playwright-core';
import type { RunningApp } from './support/app-process';
import { hydrated } from './support/browser';
import { startBrowserSite, type BrowserSite } from './support/browser-site';
import { poll } from './support/poll';

const ADMIN = 'editor@example.com';

/**
 * "Something wrong with this guide?" as a player meets it, on the site as `npm start` runs it
 * (embedded database, no Redis: the web process runs the notification job), mail caught by a real
 * SMTP server.
 */
describe('guide problem reports in a real browser', () => {
  let site: BrowserSite;
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    site = await startBrowserSite({ ADMIN_EMAILS: ADMIN });
    ({ app, browser } = site);
  });

  afterAll(() => site?.close());

  it('goes from the guide to the form without a reload, sends a report, thanks the player and mails the admin', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await page.goto(`${app.url}/levels/27`);
      await hydrated(page);
      await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
      await page.getByRole('link', { name: 'Something wrong with this guide?' }).click();
      await page.waitForURL(`${app.url}/levels/27/report`);
      await page.getByRole('heading', { name: 'Something wrong with this guide?' }).waitFor();
      // Client-side navigation: the document (and its marker) survived.
      expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

      // The sample guide's video is a placeholder the guide does not show: nothing to say about it.
      await page.getByRole('radio', { name: 'Something else' }).waitFor();
      expect(await page.getByRole('radio', { name: 'The video does not match' }).count()).toBe(0);
      await page.getByRole('radio', { name: 'A step is wrong' }).check();
      await page.getByLabel('What happened? (optional)').fill('Step 3 shows a blue door; my game has a red one.');
      await poll(() => page.getByText('48/1000').count()).toBe(1);
      await page.getByRole('button', { name: 'Send report' }).click();
      await page.getByRole('status').filter({ hasText: 'Thank you! We will check the guide of level 27.' }).waitFor();

      const mail = await site.mail.waitFor(ADMIN, /^Guide problem reported: level 27 \(a step is wrong\)$/);
      expect(mail.raw).toContain('Step 3 shows a blue door; my game has a red one.');

      await page.getByRole('link', { name: 'Back to the guide' }).click();
      await page.waitForURL(`${app.url}/levels/27`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the form without JavaScript, disabled, and says why', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      const response = await page.goto(`${app.url}/levels/27/report`);
      expect(response?.status()).toBe(200);
      // Playwright's text locators skip <noscript>; a CSS locator reads it (shown: scripting is off).
      const note = page.locator('noscript > p');
      await poll(() => note.isVisible()).toBe(true);
      await poll(() => note.textContent()).toBe('Sending a report needs JavaScript. Turn it on and reload this page.');
      await expect(page.getByRole('button', { name: 'Send report' }).isDisabled()).resolves.toBe(true);
    } finally {
      await context.close();
    }
  });
});
