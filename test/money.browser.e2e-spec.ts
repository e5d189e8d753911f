import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import type { AccountExport } from 'src/contracts/account-export';
import { hydrated } from './support/browser';
import { BROWSER_PASSWORD, payOnTestCheckout, signUpAndSignIn, startBrowserSite, type BrowserSite } from './support/browser-site';
import { poll } from './support/poll';

/**
 * Issue 37 as a newcomer tries it in Chromium: buys a pack, opens its receipt, exports the orders
 * as CSV, refunds the pack themself, downloads their data and deletes the account.
 */
describe('receipts, exports, a self-service refund and leaving with your data, in a real browser', () => {
  let site: BrowserSite;

  beforeAll(async () => {
    site = await startBrowserSite({ HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true', SELLER_NAME: 'Doors Guide Ltd', SELLER_ADDRESS: '1 Puzzle Lane; Escape City' });
  });

  afterAll(() => site?.close());

  function watch(page: Page): string[] {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    return problems;
  }

  /** Clicks what starts a download and reads the file. */
  async function download(page: Page, start: () => Promise<void>): Promise<{ name: string; text: string }> {
    const [file] = await Promise.all([page.waitForEvent('download'), start()]);
    return { name: file.suggestedFilename(), text: await readFile((await file.path())!, 'utf8') };
  }

  it('buys a pack, opens the receipt, exports CSV, refunds the pack, downloads the data and deletes the account', async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'Asia/Tokyo', acceptDownloads: true });
    const page = await context.newPage();
    const problems = watch(page);
    // The Refund and Delete buttons ask first: the newcomer says yes.
    page.on('dialog', (dialog) => void dialog.accept());
    const email = `newcomer-${Date.now().toString(36)}@example.com`;
    const { url } = site.app;
    try {
      await signUpAndSignIn(site, page, email);
      await page.goto(`${url}/pricing`);
      await hydrated(page);
      await page.getByText('A pack bought within the last 14 days with less than 10% of its credits used is refunded in full, by you, from your billing page.', { exact: false }).waitFor();
      await page.getByRole('button', { name: 'Buy Starter: 100 credits for $2.99' }).click();
      const orderId = await payOnTestCheckout(page, '$2.99');

      // The receipt, from the success page.
      await page.getByRole('link', { name: 'Receipt' }).click();
      await page.waitForURL(`${url}/billing/receipts/${orderId}`);
      const receipt = page.getByTestId('receipt');
      await receipt.getByText('Test mode: no money was taken').waitFor();
      for (const part of ['Doors Guide Ltd', '1 Puzzle Lane', 'Escape City', email, 'Starter pack: 100 credits', '$2.99', 'Test card •••• 4242', 'USD']) await receipt.getByText(part, { exact: false }).first().waitFor();
      const number = (await receipt.locator('.font-mono').first().textContent())!;
      expect(number).toMatch(/^ORD-/);

      // The billing table: the orders as CSV, in the browser's time zone.
      await page.getByRole('link', { name: 'Back to billing' }).click();
      await page.waitForURL(new RegExp(`/billing\\?order=${orderId}`));
      const row = page.locator(`tr[data-order="${orderId}"]`);
      await row.getByRole('link', { name: `Receipt of order ${number}` }).waitFor();
      const csv = await download(page, () => page.getByTestId('export-orders').click());
      expect(csv.name).toMatch(/^orders-\d{4}-\d\d-\d\d\.csv$/);
      expect(csv.text).toContain('Date (Asia/Tokyo)');
      expect(csv.text).toContain(`${number},`);
      expect(csv.text).toContain('Total (paid orders),,1 orders; net 2.99 USD');

      // Refund: the rule allows it, the pack is refunded and its credits go.
      await row.getByRole('button', { name: `Refund order ${number}` }).click();
      await page.getByText(`Order ${number} refunded`).waitFor();
      await poll(() => row.textContent()).toContain('Refunded');
      // 110 before: the pack's 100 credits are gone, the trial's 10 stay.
      await poll(() => page.getByTestId('header-balance').innerText()).toMatch(/^10\b/);
      await page.goto(`${url}/billing/receipts/${orderId}`);
      await page.getByTestId('receipt-refund').getByText('refunded by you').waitFor();

      // The account page: download my data, then delete the account.
      await page.getByLabel('Account').click();
      await page.getByRole('link', { name: 'Your account' }).click();
      await page.waitForURL(`${url}/account`);
      await poll(() => page.getByTestId('account-page-email').textContent()).toBe(email);
      await page.getByTestId('kept-after-deletion').getByText('payment records', { exact: false }).waitFor();
      const data = await download(page, () => page.getByTestId('download-my-data').click());
      const exported = JSON.parse(data.text) as AccountExport;
      expect(exported.account.email).toBe(email);
      expect(exported.orders).toEqual([expect.objectContaining({ number, status: 'refunded' })]);

      await page.getByLabel('Your password').fill(BROWSER_PASSWORD);
      await page.getByRole('button', { name: 'Delete my account' }).click();
      await page.waitForURL(`${url}/`);
      await page.getByText('Your account is deleted.', { exact: false }).waitFor();
      await site.mail.waitFor(email, /account is deleted/);
      // Signed out: the account page asks to sign in.
      await page.goto(`${url}/account`);
      await page.getByText('Please sign in to see your account.').waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
