import type { Browser, Page } from 'playwright-core';
import type { RunningApp } from './support/app-process';
import { hydrated } from './support/browser';
import type { BrowserSite } from './support/browser-site';
import { poll } from './support/poll';
import { startSite } from './support/site';

const ADMIN = 'content@example.com';

/**
 * /admin/guides in Chromium: an admin finds it from the admin overview, sorts it by a column, and
 * marks a player's report handled, which leaves the list; on a phone the guide column stays in
 * view while the table scrolls sideways.
 */
describe('/admin/guides in a real browser', () => {
  let site: BrowserSite;
  let app: RunningApp;
  let browser: Browser;
  let token: string;

  beforeAll(async () => {
    site = (await startSite({ browser: true, env: { MIGRATE_ON_START: 'true', HAS_LOGIN: 'true', ADMIN_EMAILS: ADMIN, TRUST_PROXY: 'true' } })) as BrowserSite;
    ({ app, browser } = site);
    token = await site.signedInUser(ADMIN);
    for (const message of ['Step 3 says left; it is the right door.', 'The dial has five positions now.']) {
      const response = await fetch(`${app.url}/api/v1/levels/27/reports`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `192.0.2.${message.length}` },
        body: JSON.stringify({ kind: 'wrong_step', message }),
      });
      expect(response.status).toBe(201);
    }
  });

  afterAll(async () => {
    await site?.close();
  });

  async function adminPage(width: number): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await context.addCookies([{ name: 'token', value: token, url: app.url }]);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    return { page, problems, close: () => context.close() };
  }

  it('is found from the admin overview, sorts by a column, and marks a report handled', async () => {
    const { page, problems, close } = await adminPage(1280);
    try {
      await page.goto(`${app.url}/admin`);
      await hydrated(page);
      await page.getByRole('main').getByRole('link', { name: 'Guides', exact: true }).first().click();
      await page.waitForURL(`${app.url}/admin/guides`);
      await page.getByRole('heading', { name: 'Guides', level: 1 }).waitFor();
      // Worst first: the guide with open reports leads.
      await poll(() => page.locator('[data-testid="admin-guides"] tbody tr').first().getAttribute('data-level')).toBe('27');

      await page.getByRole('columnheader', { name: /Helpful/ }).getByRole('link').click();
      await page.waitForURL(`${app.url}/admin/guides?sort=helpful`);
      await poll(() => page.getByRole('columnheader', { name: /Helpful/ }).getAttribute('aria-sort')).toBe('ascending');
      await page.getByRole('columnheader', { name: /Helpful/ }).getByRole('link').click();
      await page.waitForURL(`${app.url}/admin/guides?sort=helpful&dir=desc`);
      await poll(() => page.getByRole('columnheader', { name: /Helpful/ }).getAttribute('aria-sort')).toBe('descending');

      const reports = page.getByTestId('reports-27').locator('li');
      await poll(() => reports.count()).toBe(2);
      const first = reports.filter({ hasText: 'Step 3 says left' });
      await first.getByRole('button', { name: 'Mark handled' }).click();
      await page.getByText('Report on level 27 marked handled').waitFor();
      await poll(() => reports.count()).toBe(1);
      await poll(() => page.locator('tr[data-level="27"] td').nth(5).textContent()).toBe('1');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('keeps the guide column in view on a phone while the table scrolls sideways', async () => {
    const { page, close } = await adminPage(390);
    try {
      await page.goto(`${app.url}/admin/guides?sort=level`);
      await hydrated(page);
      const cell = page.locator('tr[data-level="1"] td').first();
      const before = (await cell.boundingBox())!;
      await page.getByTestId('admin-guides').evaluate((table) => (table.parentElement!.scrollLeft = table.parentElement!.scrollWidth));
      await poll(async () => (await page.locator('tr[data-level="1"] td').nth(7).boundingBox())!.x).toBeLessThan(390);
      expect((await cell.boundingBox())!.x).toBe(before.x);
      // The page itself is no wider than the phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    } finally {
      await close();
    }
  });
});
