import type { Browser } from 'playwright-core';
import type { RunningApp } from './support/app-process';
import { hydrated } from './support/browser';
import { linkToken, type MailSink } from './support/mail-sink';
import { startSite, type Site } from './support/site';
import { poll } from './support/poll';

const PASSWORD = 'correct horse battery';

describe('accounts in a real browser', () => {
  let site: Site;
  let app: RunningApp;
  let browser: Browser;
  let mail: MailSink;

  beforeAll(async () => {
    // Without REDIS_URL the web process sends the mail itself, here to a real SMTP server.
    // Password sign-in pauses for an address after 3 wrong passwords in an hour here (100 by default).
    site = await startSite({ browser: true, mail: true, env: { HAS_LOGIN: 'true', AUTH_SIGN_IN_FAILURES_PER_HOUR: '3' } });
    ({ app } = site);
    browser = site.browser!;
    mail = site.mail!;
  });

  afterAll(() => site?.close());

  it('signs up, confirms from the email, signs in, shows the account menu, and signs out', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    const email = `browser-${Date.now().toString(36)}@example.com`;
    try {
      await page.goto(`${app.url}/auth/signup`);
      await hydrated(page);
      await page.getByLabel('Email').fill('not-an-email');
      // Field messages appear once typing pauses (300 ms debounce).
      await page.getByText('Please enter a valid email address').waitFor();
      await page.getByLabel('Email').fill(email);
      await page.getByText('Please enter a valid email address').waitFor({ state: 'detached' });
      await page.getByLabel('Password (at least 8 characters)').fill(PASSWORD);
      await page.getByLabel('Confirm password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL(/\/auth\/email_verifications\?email=.+&type=account_confirm$/);
      await page.getByText(`We sent a confirmation link to ${email}`).waitFor();

      const token = linkToken(await mail.waitFor(email, /Confirm your email/), '/auth/confirm');
      await page.goto(`${app.url}/auth/confirm#token=${token}`);
      await page.getByText('Your email is confirmed. You can sign in now.').waitFor();

      await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
      await page.waitForURL(`${app.url}/auth/login`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('status').getByText('login success').waitFor();
      await page.waitForURL(`${app.url}/`);

      const account = page.getByLabel('Account');
      await account.click();
      await poll(() => page.getByTestId('account-email').textContent()).toBe(email);

      // A new page load knows the user again: the cookie authenticates user_info.
      await page.reload();
      await page.getByLabel('Account').waitFor();
      // And a signed-in user is kept out of the /auth pages.
      await page.goto(`${app.url}/auth/signup`);
      await page.waitForURL(`${app.url}/`);

      await page.getByLabel('Account').click();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('status').getByText('Sign out success').waitFor();
      await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).waitFor();
      await page.reload();
      await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the server errors of a failed sign-in and of a failed sign-out in red toasts', async () => {
    const context = await browser.newContext();
    const email = `toasts-${Date.now().toString(36)}@example.com`;
    try {
      const page = await context.newPage();
      await page.goto(`${app.url}/auth/login`);
      await hydrated(page);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill('wrong password');
      await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('status').getByText('Invalid email or password').waitFor();

      // An account signed in on two tabs: the first signs out, the second's sign-out then fails.
      const json = { 'content-type': 'application/json' };
      await fetch(`${app.url}/auth/sign_up`, { method: 'POST', headers: json, body: JSON.stringify({ email, password: PASSWORD, password_confirmation: PASSWORD }) });
      const token = linkToken(await mail.waitFor(email, /Confirm your email/), '/auth/confirm');
      await fetch(`${app.url}/auth/confirm`, { method: 'POST', headers: json, body: JSON.stringify({ token }) });
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${app.url}/`);
      const second = await context.newPage();
      await second.goto(`${app.url}/levels`);
      await second.getByLabel('Account').waitFor();
      await page.getByLabel('Account').click();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('status').getByText('Sign out success').waitFor();
      await second.getByLabel('Account').click();
      await second.getByRole('button', { name: 'Sign out' }).click();
      await second.getByRole('status').getByText('Sign out failed: Please sign in.').waitFor();
      await second.getByRole('banner').getByRole('button', { name: 'Sign in' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('opens the login modal from the header and closes it with its close button', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    const page = await context.newPage();
    try {
      await page.goto(`${app.url}/levels/27`);
      await hydrated(page);
      await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign in' });
      await dialog.getByText('To prevent spam, some actions require being signed in.').waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'hidden' });
    } finally {
      await context.close();
    }
  });

  it('signs in through the header modal, and the modal stays closed after signing out again', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const email = `modal-${Date.now().toString(36)}@example.com`;
    try {
      const json = { 'content-type': 'application/json' };
      await fetch(`${app.url}/auth/sign_up`, { method: 'POST', headers: json, body: JSON.stringify({ email, password: PASSWORD, password_confirmation: PASSWORD }) });
      const token = linkToken(await mail.waitFor(email, /Confirm your email/), '/auth/confirm');
      await fetch(`${app.url}/auth/confirm`, { method: 'POST', headers: json, body: JSON.stringify({ token }) });

      await page.goto(`${app.url}/levels/27`);
      await hydrated(page);
      const header = page.getByRole('banner');
      await header.getByRole('button', { name: 'Sign in' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign in' });
      await dialog.getByLabel('Email').fill(email);
      await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await dialog.getByRole('button', { name: 'Sign in' }).click();
      // The signed-in menu is a chunk of its own, loaded now.
      await header.getByLabel('Account').click();
      await page.getByTestId('account-email').getByText(email).waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await header.getByRole('button', { name: 'Sign in' }).waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('sends an unconfirmed account from the sign-in form to the email verification page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const email = `unconfirmed-${Date.now().toString(36)}@example.com`;
    try {
      const signUp = await fetch(`${app.url}/auth/sign_up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD, password_confirmation: PASSWORD }),
      });
      expect(signUp.status).toBe(202);
      await page.goto(`${app.url}/auth/login`);
      await hydrated(page);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${app.url}/auth/email_verifications?email=${encodeURIComponent(email)}&type=account_confirm`);
      await page.getByRole('button', { name: 'Resend' }).click();
      await page.getByRole('status').getByText('If this address has an unconfirmed account, a new link is on its way.').waitFor();
    } finally {
      await context.close();
    }
  });

  it('offers a mailed sign-in link once password sign-in is paused for the account, and the link signs in', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const email = `paused-${Date.now().toString(36)}@example.com`;
    try {
      await site.signedInUser(email);
      const json = { 'content-type': 'application/json' };
      for (let i = 0; i < 3; i++) {
        const guess = await fetch(`${app.url}/auth/sign_in`, { method: 'POST', headers: json, body: JSON.stringify({ email, password: `guess number ${i}` }) });
        expect(guess.status).toBe(401);
      }
      await page.goto(`${app.url}/auth/login`);
      await hydrated(page);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
      const offer = page.getByTestId('sign-in-link-offer');
      await offer.getByText('Password sign-in is paused for this account after too many wrong passwords.').waitFor();
      const before = mail.delivered.length;
      await offer.getByRole('button', { name: 'Email me a sign-in link' }).click();
      await page.getByRole('status').getByText('If this address has an account, a sign-in link is on its way.').waitFor();

      const token = linkToken(await mail.waitFor(email, /sign-in link/, before), '/auth/sign_in_link');
      await page.goto(`${app.url}/auth/sign_in_link#token=${token}`);
      await page.waitForURL(`${app.url}/`);
      await page.getByLabel('Account').click();
      await poll(() => page.getByTestId('account-email').textContent()).toBe(email);
    } finally {
      await context.close();
    }
  });
});
