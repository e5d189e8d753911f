import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { freePort, startApp, type RunningApp } from './app-process';
import { hydrated, launchBrowser } from './browser';
import { linkToken, startMailSink, type MailSink } from './mail-sink';

export const BROWSER_PASSWORD = 'correct horse battery';

export interface BrowserSite {
  app: RunningApp;
  browser: Browser;
  mail: MailSink;
  /** The site's DATA_DIR (the embedded database, files); removed by close(). */
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The site as `npm start` runs it on a fresh machine (embedded database, no Redis: jobs run in the
 * web process) plus `env`, a real SMTP server catching its mail, and headless Chromium.
 */
export async function startBrowserSite(env: Record<string, string>): Promise<BrowserSite> {
  // The browser first: without Chromium the suite fails before any server starts (none is left running).
  const browser = await launchBrowser();
  const dataDir = await mkdtemp(join(tmpdir(), 'guides-browser-'));
  let mail: MailSink | undefined;
  let app: RunningApp;
  try {
    mail = await startMailSink();
    const port = await freePort();
    app = await startApp({ DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, SMTP_URL: mail.url, ...env });
  } catch (error) {
    await browser.close();
    await mail?.close();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    app,
    browser,
    mail,
    dataDir,
    async close() {
      await browser.close();
      await app.stop();
      await mail.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
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
