import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { RunningApp } from './support/app-process';
import { hydrated } from './support/browser';
import { BROWSER_PASSWORD, type BrowserSite } from './support/browser-site';
import { poll } from './support/poll';
import { startSite } from './support/site';

const ADMIN = 'ops@example.com';
const METRICS_TOKEN = 'metrics-token-for-the-browser-test';

/**
 * The "done when" for the ops screens: an admin signed in with Chromium sees the queue
 * dashboard with the mail queue and a job in it (Redis, no worker: a sign-up's confirmation mail
 * waits there), and the errors page; a normal user gets the 404 page for all of them.
 */
describe('the ops screens in a real browser', () => {
  let site: BrowserSite;
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    site = (await startSite({
      browser: true,
      mail: true,
      redis: true,
      env: { MIGRATE_ON_START: 'true', HAS_LOGIN: 'true', ADMIN_EMAILS: ADMIN, METRICS_TOKEN },
    })) as BrowserSite;
    ({ app, browser } = site);
  });

  afterAll(async () => {
    await site?.close();
  });

  /** A browser signed in as `email` (the session cookie, as after signing in). */
  async function signedIn(email: string): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'token', value: await site.signedInUser(email), url: app.url }]);
    return context;
  }

  /** Uncaught errors, console errors and CSP violations, as a user (or the page's own policy) would meet them. */
  async function watch(page: Page): Promise<string[]> {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`)),
    );
    return problems;
  }

  it('an admin finds the ops screens in the account menu, the mail job on the queue dashboard, and the errors page, with no CSP violation', async () => {
    // With Redis and no worker, the confirmation mail of a sign-up waits in the mail queue.
    const signUp = await fetch(`${app.url}/auth/sign_up`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'newcomer@example.com', password: BROWSER_PASSWORD, password_confirmation: BROWSER_PASSWORD }),
    });
    expect(signUp.status).toBe(202);
    const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script> broke';
    const report = await fetch(`${app.url}/api/v1/log_client_error`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { error_type: 'CLIENT_ERROR', origin_type: 1, message: hostile, backtrace: 'Error: broke\n    at Hints (level.page.js:1:2)', path: '/levels/27', build_id: 'build-7' } }),
    });
    expect(report.status).toBe(204);

    const context = await signedIn(ADMIN);
    const page = await context.newPage();
    const problems = await watch(page);
    try {
      await page.goto(`${app.url}/`);
      await hydrated(page);
      await page.getByLabel('Account').click();
      await page.getByRole('link', { name: 'Admin', exact: true }).click();
      await page.waitForURL(`${app.url}/admin`);
      await page.getByRole('heading', { name: 'Admin', level: 1 }).waitFor();
      await poll(() => page.getByRole('link', { name: 'Metrics' }).getAttribute('href')).toBe('/metrics');
      await poll(() => page.getByRole('link', { name: 'API' }).getAttribute('href')).toBe('/api/docs');

      // The errors page, by client-side navigation: the hostile message is text, nothing ran.
      await page.getByRole('link', { name: 'Errors' }).click();
      await page.waitForURL(`${app.url}/admin/errors`);
      await page.getByText(hostile).waitFor();
      await page.getByText('build-7').waitFor();
      await page.getByText('Backtrace').click();
      await page.getByText('at Hints (level.page.js:1:2)').waitFor();
      await page.getByRole('link', { name: 'Server' }).click();
      await page.waitForURL(`${app.url}/admin/errors?scope=server`);
      await page.getByText('No errors recorded (server).').waitFor();
      await poll(() => page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

      // The queue dashboard: bull-board, a full page load.
      await page.goto(`${app.url}/admin`);
      await page.getByRole('link', { name: 'Queue dashboard' }).click();
      await page.waitForURL(`${app.url}/admin/queues`);
      await page.getByRole('link', { name: 'mail', exact: true }).first().click();
      await page.waitForURL(`${app.url}/admin/queues/queue/mail`);
      await page.getByText(/^mail-[0-9a-f-]{36}$/).waitFor();
      await page.getByText('mail.send', { exact: true }).waitFor();
      await page.getByText('outboxId').waitFor();
      await page.getByRole('link', { name: 'images', exact: true }).first().waitFor();
      expect(problems).toEqual([]);

      // Metrics, as Prometheus (or an admin with the token) reads them.
      const metrics = await page.request.get(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(metrics.status()).toBe(200);
      const text = await metrics.text();
      expect(text).toMatch(/^http_requests_total\{.*route="\/admin[^"]*".*\} \d+/m);
      expect(text).toMatch(/^queue_jobs\{.*queue="mail".*\} \d+/m);
    } finally {
      await context.close();
    }
  });

  it('a normal user has no Admin entry and gets the 404 page for every ops screen', async () => {
    const context = await signedIn('player@example.com');
    const page = await context.newPage();
    try {
      await page.goto(`${app.url}/`);
      await hydrated(page);
      await page.getByLabel('Account').click();
      await page.getByTestId('account-email').waitFor();
      await poll(() => page.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
      for (const path of ['/admin', '/admin/errors', '/admin/queues', '/admin/queues/queue/mail', '/metrics']) {
        const response = await page.goto(`${app.url}${path}`);
        expect(response!.status()).toBe(404);
        await page.getByText(`Page not found: ${path}`).waitFor();
      }
    } finally {
      await context.close();
    }
  });
});
