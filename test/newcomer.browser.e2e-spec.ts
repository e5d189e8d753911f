import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { hydrated } from './support/browser';
import { payOnTestCheckout } from './support/browser-site';
import { poll } from './support/poll';
import { useSite } from './support/site';
import { until } from './support/until';

const EMAIL = 'newcomer@example.com';
const PASSWORD = 'a long enough password';
const TEST_MODE = 'Test mode: purchases go to a test checkout and no real money is taken.';

/**
 * The "done when": a fresh clone's `npm start` with nothing configured (no NODE_ENV,
 * DATABASE_URL, PUBLIC_URL or any feature switch; a fresh embedded database; mail written to files),
 * walked in a browser as a newcomer would: sign up with the link printed in the terminal, see the
 * trial, buy a test pack, donate, convert an image, and refund that pack from the admin orders
 * screen as the first account (the local try-out's admin), with "test mode" on every money page.
 */
describe('the newcomer path of a fresh npm start', () => {
  // PUBLIC_URL is left unset, as on a fresh clone (the site's own origin is http://localhost:PORT).
  const site = useSite({ database: 'embedded', browser: true, env: { PUBLIC_URL: '' } });
  const base = () => site.url.replace('127.0.0.1', 'localhost');

  /** The visible "test mode" note (the image tool places it by screen width). */
  async function expectTestMode(page: Page) {
    await page.locator('[data-testid="test-mode"]:visible').getByText(TEST_MODE).or(page.locator('[data-testid="test-mode"]:visible', { hasText: TEST_MODE })).first().waitFor();
  }

  it('signs up from the terminal link, sees the trial, buys a pack, donates, converts an image and refunds the pack as admin', async () => {
    const context = await site.browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      // The terminal says what runs and where.
      await until('the start-up summary', () => site.app.stdout().includes('Local try-out (nothing configured)'));
      expect(site.app.stdout()).toContain(`Sign up at ${base()}/auth/signup`);

      // Sign up; the confirmation link is printed in the terminal.
      await page.goto(`${base()}/auth/signup`);
      await hydrated(page);
      await page.getByLabel('Email').fill(EMAIL);
      await page.getByLabel('Password (at least 8 characters)').fill(PASSWORD);
      await page.getByLabel('Confirm password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL(/\/auth\/email_verifications/);
      const link = await until('the confirmation link in the terminal', () => new RegExp(`link: (${base()}/auth/confirm#token=[A-Za-z0-9_-]{43})`).exec(site.app.stdout())?.[1]);
      await page.goto(link);
      await page.getByText('Your email is confirmed. You can sign in now.').waitFor();
      await page.goto(`${base()}/auth/login`);
      await hydrated(page);
      await page.getByLabel('Email').fill(EMAIL);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${base()}/`);

      // The 10-credit trial, on /usage.
      await page.goto(`${base()}/usage`);
      await poll(() => page.getByTestId('usage-balance').textContent()).toBe('10 credits');
      await expectTestMode(page);

      // A test pack through the test checkout.
      await page.goto(`${base()}/pricing`);
      await hydrated(page);
      await expectTestMode(page);
      await page.getByRole('button', { name: 'Buy Starter: 100 credits for $2.99' }).click();
      const pack = await payOnTestCheckout(page, '$2.99');
      await expectTestMode(page);
      await poll(() => page.getByTestId('success-balance').textContent()).toContain('110 credits');

      // A $2 donation: 100 credits.
      await page.goto(`${base()}/pricing#donate`);
      await hydrated(page);
      await page.getByRole('button', { name: '$2', exact: true }).click();
      await page.getByRole('button', { name: 'Donate' }).click();
      await payOnTestCheckout(page, '$2.00');
      await poll(() => page.getByTestId('success-balance').textContent()).toContain('210 credits');
      await page.goto(`${base()}/billing`);
      await expectTestMode(page);
      await page.locator(`tr[data-order="${pack}"]`).waitFor();

      // An image, converted in the web process for 1 credit.
      await page.goto(`${base()}/tools/image`);
      await hydrated(page);
      await expectTestMode(page);
      const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 120, b: 40 } } }).png().toBuffer();
      await page.getByTestId('image-file').setInputFiles({ name: 'door.png', mimeType: 'image/png', buffer: photo });
      await page.getByRole('radio', { name: 'Pencil sketch', exact: true }).check();
      await page.getByTestId('image-submit').click();
      await page.getByTestId('image-download').waitFor({ timeout: 60_000 });
      await poll(() => page.getByTestId('image-balance').textContent()).toBe('209 credits');

      // The admin screens, as the first account: Admin in the account menu, then Orders.
      await page.getByRole('button', { name: 'Account' }).click();
      await page.getByRole('menuitem', { name: 'Admin' }).or(page.getByRole('link', { name: 'Admin' })).first().click();
      await page.waitForURL(`${base()}/admin`);
      await page.getByRole('link', { name: 'Orders' }).click();
      await page.waitForURL(`${base()}/admin/orders`);
      await expectTestMode(page);
      const find = page.getByRole('search', { name: 'Find orders' });
      await find.getByLabel("Buyer's email").fill('newcomer');
      await find.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/\/admin\/orders\?email=newcomer/);
      await page.locator(`li[data-order="${pack}"]`).getByRole('link').click();
      await page.waitForURL(`${base()}/admin/orders/${pack}`);
      await expectTestMode(page);

      // Refund it all, behind a confirmation that says what goes back.
      await page.getByRole('button', { name: 'Refund…' }).click();
      const dialog = page.getByRole('dialog', { name: /Refund \$2\.99 of ORD-/ });
      await dialog.getByTestId('refund-consequences').getByText(`$2.99 goes back to ${EMAIL} (a test order: no real money moves).`).waitFor();
      // 100 credits of the pack; one was spent on the image (from the trial, which expires first), so all 100 are unspent.
      await dialog.getByText(`100 credits will be taken back from ${EMAIL}.`).waitFor();
      await dialog.getByRole('button', { name: 'Refund $2.99' }).click();
      await page.getByRole('heading', { level: 1 }).getByText('Refunded', { exact: true }).waitFor();
      await page.getByTestId('admin-order-refunds').getByText(EMAIL).waitFor();
      await page.getByTestId('admin-order-credits').getByText('−100').waitFor();

      await page.goto(`${base()}/usage`);
      await poll(() => page.getByTestId('usage-balance').textContent()).toBe('109 credits');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);
});
