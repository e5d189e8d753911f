import type { Browser, Page } from 'playwright-core';
import { hydrated } from './browser';
import { linkToken, type MailSink } from './mail-sink';
import { startSite, type Site } from './site';

export const BROWSER_PASSWORD = 'correct horse battery';

export type BrowserSite = Site & { browser: Browser; mail: MailSink };

/**
 * The site for a browser test: startSite() with headless Chromium (launched first) and a real SMTP
 * server catching its mail, on PostgreSQL, no Redis (jobs run in the web process, as on a fresh
 * machine), plus `env`.
 */
export async function startBrowserSite(env: Record<string, string>): Promise<BrowserSite> {
  return (await startSite({ browser: true, mail: true, env })) as BrowserSite;
}

/** Signs up through the form, confirms from the captured email, and signs in: a new user's path. */
export async function signUpAndSignIn(site: BrowserSite, page: Page, email: string): Promise<void> {
  const { app, mail } = site;
  await page.goto(`${app.url}/auth/signup`);
  await hydrated(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password (at least 8 characters)').fill(BROWSER_PASSWORD);
  await page.getByLabel('Confirm password').fill(BROWSER_PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/auth\/email_verifications/);
  const token = linkToken(await mail.waitFor(email, /Confirm your email/), '/auth/confirm');
  await page.goto(`${app.url}/auth/confirm#token=${token}`);
  await page.getByText('Your email is confirmed. You can sign in now.').waitFor();
  await page.goto(`${app.url}/auth/login`);
  await hydrated(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(BROWSER_PASSWORD);
  await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${app.url}/`);
}

/** From the test checkout page (marked as a test): Pay, then the success page with the order paid; its id. */
export async function payOnTestCheckout(page: Page, amount: string): Promise<string> {
  await page.waitForURL(/\/payment\/test-checkout\?order=/);
  await page.getByText('Test checkout — no real money is taken').waitFor();
  await page.getByRole('button', { name: `Pay ${amount}` }).click();
  await page.waitForURL(/\/payment\/success\?order=/);
  await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
  return new URL(page.url()).searchParams.get('order')!;
}
