import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import type { RunningApp } from './support/app-process';
import { hydrated } from './support/browser';
import { BROWSER_PASSWORD, payOnTestCheckout, signUpAndSignIn, startBrowserSite, type BrowserSite } from './support/browser-site';
import { poll } from './support/poll';

/**
 * The "done when", as a new user would try it: `HAS_LOGIN=true HAS_PAYMENT=true npm start`
 * and nothing else (the embedded database, the local test checkout; a real SMTP server only to
 * catch the confirmation mail).
 */
const ADMIN = 'billing-admin@example.com';

describe('credits and payments in a real browser', () => {
  let site: BrowserSite;
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    site = await startBrowserSite({ HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true', ADMIN_EMAILS: ADMIN });
    ({ app, browser } = site);
  });

  afterAll(() => site?.close());

  /** Collects what a user would see as broken: uncaught errors and console errors. */
  function watch(page: Page): string[] {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    return problems;
  }


  it('a new user signs up, sees the 14-day trial on /usage, buys a pack through the test checkout, finds it in /billing, and donates $2 for 100 credits', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watch(page);
    const email = `buyer-${Date.now().toString(36)}@example.com`;
    try {
      await signUpAndSignIn(site, page, email);

      // The trial: 10 credits, expiring 14 days from now.
      await page.goto(`${app.url}/usage`);
      await hydrated(page);
      await poll(() => page.getByTestId('usage-balance').textContent()).toMatch(/^10\b/);
      const inFourteenDays = new Date(Date.now() + 14 * 86_400_000).toLocaleDateString('en-US', { dateStyle: 'medium' });
      await page.getByText(new RegExp(`^Expires ${inFourteenDays}`)).waitFor();
      await page.getByText('Free trial', { exact: true }).first().waitFor();

      // Pricing is in the header menu; the Popular pack through the test checkout.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
      await page.waitForURL(`${app.url}/pricing`);
      await page.getByText('Test mode: purchases go to a test checkout and no real money is taken.').waitFor();
      await page.getByRole('button', { name: 'Buy Popular: 500 credits for $9.99' }).click();
      const orderId = await payOnTestCheckout(page, '$9.99');
      await poll(() => page.getByTestId('order-number').textContent()).toMatch(/^ORD-[0-9A-Z]{8}$/);
      const orderNumber = (await page.getByTestId('order-number').textContent())!;
      await page.getByText('$9.99').first().waitFor();
      await page.getByText('Test card •••• 4242').waitFor();
      await poll(() => page.getByTestId('success-balance').textContent()).toContain('510 credits');
      await poll(() => page.getByTestId('header-balance').textContent()).toContain('510');

      // View Order: the order, highlighted, in the billing history.
      await page.getByRole('link', { name: 'View Order' }).click();
      await page.waitForURL(`${app.url}/billing?order=${orderId}`);
      const row = page.locator(`tr[data-order="${orderId}"]`);
      await row.waitFor();
      await poll(() => row.getAttribute('aria-current')).toBe('true');
      const rowText = (await row.textContent())!;
      for (const part of [orderNumber, '$9.99', 'Paid', '500']) expect(rowText).toContain(part);

      // A $2 donation: 100 credits.
      await page.goto(`${app.url}/pricing`);
      await hydrated(page);
      await page.getByLabel('Donation in US dollars').fill('2');
      await poll(() => page.getByTestId('donation-credits').textContent()).toContain('100 credits');
      await page.getByRole('button', { name: 'Donate', exact: true }).click();
      await payOnTestCheckout(page, '$2.00');
      await poll(() => page.getByTestId('success-balance').textContent()).toContain('610 credits');

      // The account menu: the balance beside the email, Billing and Usage.
      await page.getByLabel('Account').click();
      await poll(() => page.getByTestId('account-balance').textContent()).toContain('610 credits');
      await page.getByRole('link', { name: 'Usage' }).click();
      await page.waitForURL(`${app.url}/usage`);
      await poll(() => page.getByTestId('usage-balance').textContent()).toMatch(/^610\b/);
      await page.getByText('Donation', { exact: true }).first().waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says on /billing and /usage how many credits a refund took back when some were already used', async () => {
    const email = `short-${Date.now().toString(36)}@example.com`;
    const token = await site.signedInUser(email);
    const admin = await site.signedInUser(ADMIN);
    const api = (method: string, path: string, bearer: string, headers: Record<string, string> = {}, body?: unknown) =>
      fetch(`${app.url}${path}`, { method, headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    const { order_id: orderId } = (await (await api('POST', '/api/v1/checkout', token, {}, { pack_id: 'starter' })).json()) as { order_id: string };
    expect((await api('POST', `/api/v1/orders/${orderId}/test_payment`, token, {}, { result: 'paid' })).status).toBe(200);
    // 98 of the pack's 100 credits used, then the order refunded in full.
    await (await site.db()).query(`update credit_lots set remaining = 2 where source_ref = $1`, [`order:${orderId}`]);
    expect((await api('POST', `/api/v1/admin/orders/${orderId}/refund`, admin, { 'idempotency-key': `short-${orderId}` })).status).toBe(200);

    const context = await browser.newContext();
    await context.addCookies([{ name: 'token', value: token, url: app.url }]);
    const page = await context.newPage();
    const problems = watch(page);
    try {
      await page.goto(`${app.url}/billing`);
      await hydrated(page);
      const row = page.locator(`tr[data-order="${orderId}"]`);
      await poll(() => row.getByTestId('order-note').allTextContents()).toEqual(['Credits taken back: 2 of 100 (98 were already used)']);
      await page.goto(`${app.url}/usage`);
      await hydrated(page);
      await page.getByText(/^Refund of ORD-[0-9A-Z]{8}: 2 of 100 credits taken back, 98 already used$/).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says on /usage, in one sentence, why a second account on a +tag address got no trial', async () => {
    const name = `tagged-${Date.now().toString(36)}`;
    for (const [email, balance, refused] of [
      [`${name}@example.com`, /^10\b/, false],
      [`${name}+again@example.com`, /^0\b/, true],
    ] as const) {
      const context = await browser.newContext();
      const page = await context.newPage();
      try {
        await signUpAndSignIn(site, page, email);
        await page.goto(`${app.url}/usage`);
        await hydrated(page);
        await poll(() => page.getByTestId('usage-balance').textContent()).toMatch(balance);
        await poll(() => page.getByTestId('trial-refused').allTextContents()).toEqual(
          refused
            ? ['This account got no free trial because your email address already had one with another account (the trial is once per address, counting +tags and Gmail dots as the same address).']
            : [],
        );
      } finally {
        await context.close();
      }
    }
  });

  it('opens the sign-in modal when a signed-out visitor buys, then goes on to the test checkout', async () => {
    const email = `modal-${Date.now().toString(36)}@example.com`;
    const setup = await browser.newContext();
    await signUpAndSignIn(site, await setup.newPage(), email);
    await setup.close();

    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const problems = watch(page);
    try {
      await page.goto(`${app.url}/pricing`);
      await hydrated(page);
      await page.getByRole('button', { name: 'Buy Starter: 100 credits for $2.99' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign in' });
      await dialog.waitFor();
      await dialog.getByLabel('Email').fill(email);
      await dialog.getByLabel('Password', { exact: true }).fill(BROWSER_PASSWORD);
      await dialog.getByRole('button', { name: 'Sign in' }).click();
      await payOnTestCheckout(page, '$2.99');
      await poll(() => page.getByTestId('success-balance').textContent()).toContain('110 credits');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('offers the donation to an account that never paid and the pack to one that has, from a real 402 of the image tool; focus goes back to Convert (WCAG 2.4.3)', async () => {
    const email = `low-${Date.now().toString(36)}@example.com`;
    // Confirmed, signed in, 0 credits and no payment; its trial already decided (refused), or the
    // housekeeping, which owes confirmed accounts their trial, could grant it before the convert.
    const token = await site.signedInUser(email);
    await (await site.db()).query(`insert into trial_claims (user_id, address, granted) select id, email, false from users where email = $1`, [email]);
    const admin = await site.signedInUser(ADMIN);
    const context = await browser.newContext();
    await context.addCookies([{ name: 'token', value: token, url: app.url }]);
    const page = await context.newPage();
    const photo = await sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 10, g: 200, b: 90 } } }).png().toBuffer();
    const convert = async () => {
      await page.goto(`${app.url}/tools/image`);
      await hydrated(page);
      await page.getByTestId('image-file').setInputFiles({ name: 'a.png', mimeType: 'image/png', buffer: photo });
      await page.getByRole('radio', { name: 'Pencil sketch', exact: true }).check();
      await page.getByTestId('image-submit').focus();
      await page.keyboard.press('Enter');
      return page.getByTestId('low-credit-modal');
    };
    const closeAndCheckFocus = async (dialog: ReturnType<Page['getByTestId']>) => {
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('image-submit');
    };
    try {
      const never = await convert();
      await never.getByText("You don't have enough credits", { exact: true }).waitFor();
      await never.getByText('50 extra credits for every $1 donated').waitFor();
      await poll(() => never.getByRole('link', { name: 'Donate' }).getAttribute('href')).toBe('/pricing#donate');
      await closeAndCheckFocus(never);

      // Pays for a pack, which is then refunded in full: 0 credits again, but a paying customer now.
      await page.goto(`${app.url}/pricing`);
      await hydrated(page);
      await page.getByRole('button', { name: 'Buy Starter: 100 credits for $2.99' }).click();
      const order = await payOnTestCheckout(page, '$2.99');
      const refund = await fetch(`${app.url}/api/v1/admin/orders/${order}/refund`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'idempotency-key': `refund-${order}` } });
      expect(refund.status).toBe(200);

      const paid = await convert();
      await paid.getByText("You don't has enough credit!", { exact: true }).waitFor();
      await poll(() => paid.getByRole('link', { name: 'Charge' }).getAttribute('href')).toBe('/pricing');
      await closeAndCheckFocus(paid);
    } finally {
      await context.close();
    }
  });
});
