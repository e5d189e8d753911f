import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { IMAGE_WAIT_NOTICE } from 'src/contracts/images';
import type { RunningApp } from './support/app-process';
import { hydrated } from './support/browser';
import { signUpAndSignIn, startBrowserSite, type BrowserSite } from './support/browser-site';
import { poll } from './support/poll';

/**
 * The image tool's "done when", as a new user would try it: `HAS_LOGIN=true HAS_PAYMENT=true npm
 * start` and nothing else (no Redis: the web process runs the conversion itself), a real SMTP
 * server only to catch the confirmation mail.
 */
describe('the image tool in a real browser', () => {
  let site: BrowserSite;
  let app: RunningApp;
  let browser: Browser;
  let dataDir: string;

  beforeAll(async () => {
    site = await startBrowserSite({ HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true' });
    ({ app, browser, dataDir } = site);
  });

  afterAll(() => site?.close());

  it('a new user uploads a photo, sees the wait notice, then the AI 2x result, downloads it, and has 9 credits left', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    const photo = join(dataDir, 'photo.png');
    await sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 200, g: 90, b: 40 } } })
      .composite([{ input: Buffer.from('<svg width="96" height="64"><rect x="20" y="12" width="40" height="30" fill="#27c"/></svg>') }])
      .png()
      .toFile(photo);
    try {
      await signUpAndSignIn(site, page, `painter-${Date.now().toString(36)}@example.com`);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Image tool' }).click();
      await page.waitForURL(`${app.url}/tools/image`);
      await hydrated(page);
      await poll(() => page.getByTestId('image-balance').textContent()).toContain('10');
      await page.getByRole('tab', { name: 'Upload' }).waitFor();
      await page.getByTestId('image-file').setInputFiles(photo);
      await page.getByRole('radio', { name: 'AI upscale 2x', exact: true }).check();
      await page.getByTestId('image-submit').click();

      await poll(() => page.getByTestId('image-wait-notice').textContent()).toContain(IMAGE_WAIT_NOTICE);
      const result = page.getByTestId('image-result');
      await result.waitFor({ timeout: 60_000 });
      await poll(() => page.getByTestId('image-job').getAttribute('data-status')).toBe('succeeded');

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('image-download').click()]);
      expect(download.suggestedFilename()).toMatch(/^ai-2x-[0-9a-f]{8}\.png$/);
      const saved = join(dataDir, 'result.png');
      await download.saveAs(saved);
      expect(await sharp(await readFile(saved)).metadata()).toMatchObject({ format: 'png', width: 192, height: 128 });

      await page.waitForFunction(() => /\b9\b/.test(document.querySelector('[data-testid="image-balance"]')?.textContent ?? ''));
      await poll(() => page.getByTestId('header-balance').textContent()).toContain('9');
      await page.getByTestId('image-history').locator('li[data-status="succeeded"]').first().waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
