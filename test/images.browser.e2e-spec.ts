import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { IMAGE_WAIT_NOTICE } from 'src/contracts/images';
import { freePort, startApp, type RunningApp } from './support/app-process';
import { hydrated, launchBrowser } from './support/browser';
import { linkToken, startMailSink, type MailSink } from './support/mail-sink';

const PASSWORD = 'correct horse battery';

/**
 * The image tool's "done when", as a new user would try it: `HAS_LOGIN=true HAS_PAYMENT=true npm
 * start` and nothing else (no Redis: the web process runs the conversion itself), a real SMTP
 * server only to catch the confirmation mail.
 */
describe('the image tool in a real browser', () => {
  let app: RunningApp;
  let browser: Browser;
  let mail: MailSink;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'guides-images-browser-'));
    mail = await startMailSink();
    const port = await freePort();
    app = await startApp({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, HAS_LOGIN: 'true', HAS_PAYMENT: 'true', SMTP_URL: mail.url });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await mail?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function signUpAndSignIn(page: Page, email: string): Promise<void> {
    await page.goto(`${app.url}/auth/signup`);
    await hydrated(page);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password (at least 8 characters)').fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/auth\/email_verifications/);
    const token = linkToken(await mail.waitFor(email, /Confirm your email/), '/auth/confirm');
    await page.goto(`${app.url}/auth/confirm#token=${token}`);
    await page.getByText('Your email is confirmed. You can sign in now.').waitFor();
    await page.goto(`${app.url}/auth/login`);
    await hydrated(page);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${app.url}/`);
  }

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
      await signUpAndSignIn(page, `painter-${Date.now().toString(36)}@example.com`);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Image tool' }).click();
      await page.waitForURL(`${app.url}/tools/image`);
      await hydrated(page);
      await expect(page.getByTestId('image-balance').textContent()).resolves.toContain('10');
      await page.getByRole('tab', { name: 'Upload' }).waitFor();
      await page.getByTestId('image-file').setInputFiles(photo);
      await page.getByRole('radio', { name: 'AI upscale 2x', exact: true }).check();
      await page.getByTestId('image-submit').click();

      await expect(page.getByTestId('image-wait-notice').textContent()).resolves.toContain(IMAGE_WAIT_NOTICE);
      const result = page.getByTestId('image-result');
      await result.waitFor({ timeout: 60_000 });
      await expect(page.getByTestId('image-job').getAttribute('data-status')).resolves.toBe('succeeded');

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('image-download').click()]);
      expect(download.suggestedFilename()).toMatch(/^ai-2x-[0-9a-f]{8}\.png$/);
      const saved = join(dataDir, 'result.png');
      await download.saveAs(saved);
      expect(await sharp(await readFile(saved)).metadata()).toMatchObject({ format: 'png', width: 192, height: 128 });

      await page.waitForFunction(() => /\b9\b/.test(document.querySelector('[data-testid="image-balance"]')?.textContent ?? ''));
      await expect(page.getByTestId('header-balance').textContent()).resolves.toContain('9');
      await page.getByTestId('image-history').locator('li[data-status="succeeded"]').first().waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
