// Takes screenshots of pages in headless Chromium, light and dark, phone and desktop width.
// Usage: node scripts/screenshots.mjs http://localhost:3000 /tmp/shots / /some/page ...
// SCREENSHOT_TOKEN=<session token> takes them signed in (the account pages: /billing, /usage).
// SCREENSHOT_UPLOAD=<image file> also converts that image on a page with the image tool's form
// (/tools/image, signed in): a shot while it waits and one when it is done (1 credit each time).
// A page wider than the window (horizontal overflow) is named in the output.
import { chromium } from 'playwright-core';

const [base = 'http://localhost:3000', outDir = 'screenshots', ...paths] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
for (const path of paths.length ? paths : ['/']) {
  for (const colorScheme of ['light', 'dark']) {
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ colorScheme, viewport: { width, height: 900 }, deviceScaleFactor: 1 });
      if (process.env.SCREENSHOT_TOKEN) await context.addCookies([{ name: 'token', value: process.env.SCREENSHOT_TOKEN, url: base }]);
      const page = await context.newPage();
      await page.goto(base + path, { waitUntil: 'networkidle' });
      // Runs in the page: globalThis is its window.
      const overflow = await page.evaluate(() => globalThis.document.documentElement.scrollWidth - globalThis.innerWidth);
      if (overflow > 0) console.log(`${path} at ${width} px is ${overflow} px wider than the window`);
      const name = (state = '') => `${path.replace(/[^a-z0-9]+/gi, '_') || 'home'}${state}-${colorScheme}-${width}.png`;
      await page.screenshot({ path: `${outDir}/${name()}`, fullPage: true });
      console.log(`${outDir}/${name()}`);
      const upload = page.getByTestId('image-file');
      if (process.env.SCREENSHOT_UPLOAD && (await upload.count())) {
        await upload.setInputFiles(process.env.SCREENSHOT_UPLOAD);
        await page.getByTestId('image-submit').click();
        await page.getByTestId('image-wait-notice').waitFor({ timeout: 10_000 });
        // The page scrolls (smoothly) to the job; from the top, the sticky header stays where it belongs in a full-page shot.
        await page.waitForTimeout(700);
        await page.evaluate(() => globalThis.scrollTo(0, 0));
        await page.screenshot({ path: `${outDir}/${name('-waiting')}`, fullPage: true });
        console.log(`${outDir}/${name('-waiting')}`);
        await page.locator('[data-testid="image-job"]:is([data-status="succeeded"], [data-status="failed"])').waitFor({ timeout: 120_000 });
        await page.waitForLoadState('networkidle');
        await page.evaluate(() => globalThis.scrollTo(0, 0));
        await page.screenshot({ path: `${outDir}/${name('-done')}`, fullPage: true });
        console.log(`${outDir}/${name('-done')}`);
      }
      await context.close();
    }
  }
}
await browser.close();
