import type { Page } from 'playwright-core';
import { hydrated } from './support/browser';
import { useSite } from './support/site';

/** The header's box and the search page as a player uses them, on the site as `npm start` runs it (embedded database). */
describe('the one search in a real browser', () => {
  const site = useSite({ database: 'embedded', browser: true });

  /** Marks the document, so a later check tells a client-side navigation (marker kept) from a page load. */
  const markDocument = (page: Page) => page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);

  it('searches everything from the header box: words show grouped, marked results; a number opens its guide in place', async () => {
    const context = await site.browser!.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    try {
      await page.goto(`${site.url}/levels/27`);
      await hydrated(page);
      const header = page.getByRole('search', { name: 'Site search' });
      await header.getByRole('textbox').fill('brass key');
      await header.getByRole('textbox').press('Enter');
      await page.waitForURL(`${site.url}/search?q=brass+key`);
      const guides = page.getByRole('region', { name: /Guides/ });
      await guides.getByRole('link').first().waitFor();
      expect(await guides.getByRole('link').first().getAttribute('href')).toBe('/levels/1');
      // Level 1 in puzzles: its question ("Where is the key?") leads the snippet, the step's phrase follows, marked whole.
      expect(await guides.locator('mark').first().textContent()).toBe('key');
      expect(await guides.getByRole('listitem').first().locator('mark').allTextContents()).toEqual(['key', 'brass key']);

      await hydrated(page);
      await markDocument(page);
      await header.getByRole('textbox').fill('999');
      await header.getByRole('button', { name: 'Search' }).click();
      await header.getByRole('alert').filter({ hasText: 'Invalid level number' }).waitFor();
      await header.getByRole('textbox').fill('27');
      await header.getByRole('textbox').press('Enter');
      await page.waitForURL(`${site.url}/levels/27`);
      await page.getByRole('heading', { level: 1, name: /The Locked Observatory/ }).waitFor();
      expect(await sameDocument(page)).toBe(true);
    } finally {
      await context.close();
    }
  });

  it("searches in place from the page's own box, corrects a typo and says so, and shows when nothing matched", async () => {
    const context = await site.browser!.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(`${site.url}/search`);
      await hydrated(page);
      await markDocument(page);
      const box = page.getByRole('search', { name: 'Search guides, posts and pages' }).getByRole('searchbox');
      await box.fill('telscope');
      await box.press('Enter');
      await page.waitForURL(`${site.url}/search?q=telscope`);
      await page.getByText('You typed “telscope”.').waitFor();
      expect(await page.getByRole('region', { name: /Guides/ }).getByRole('link').first().textContent()).toBe('The Locked Observatory');

      await box.fill('qqqxqq');
      await box.press('Enter');
      await page.getByText('Nothing found for “qqqxqq”.').waitFor();
      await box.fill('136');
      await box.press('Enter');
      await page.waitForURL(`${site.url}/levels/136`);
      expect(await sameDocument(page)).toBe(true);
    } finally {
      await context.close();
    }
  });
});
