import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { freePort, type RunningApp } from './support/app-process';
import { linkToken, type MailSink } from './support/mail-sink';
import { startInProcessSite, startSite, type InProcessSite, type Site } from './support/site';
import { until } from './support/until';

const PASSWORD = 'correct horse battery';
const ADMIN = 'ops@example.com';

describe('accounts on PostgreSQL, Redis, the worker and an SMTP server', () => {
  let site: Site;
  let mail: MailSink;
  let app: RunningApp;
  let second: RunningApp;

  beforeAll(async () => {
    site = await startSite({
      redis: true,
      worker: true,
      mail: true,
      env: {
        HAS_LOGIN: 'true',
        ADMIN_EMAILS: ADMIN,
        NODE_ENV: 'production',
        MIGRATE_ON_START: 'true',
        // Each test player gets an address of its own through X-Forwarded-For, as behind a proxy.
        TRUST_PROXY: 'true',
      },
    });
    ({ app } = site);
    mail = site.mail!;
    // A second web process on the same database and Redis: limits and sessions must be shared.
    second = await site.startApp();
  });

  afterAll(() => site?.close());

  /** One simulated client per test (its own IP): the per-IP limits apply to each as to a real visitor. */
  let ip = '';
  beforeEach(() => {
    ip = `10.${[1, 2, 3].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;
  });

  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, base = app.url) =>
    fetch(`${base}${path}`, {
      method,
      redirect: 'manual',
      headers: { 'x-forwarded-for': ip, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** A confirmed account, signed in: its token and cookie. */
  async function confirmedUser(email: string) {
    const before = mail.delivered.length;
    expect((await call('POST', '/auth/sign_up', { email, password: PASSWORD, password_confirmation: PASSWORD })).status).toBe(202);
    const token = linkToken(await mail.waitFor(email, /Confirm your email/, before), '/auth/confirm');
    expect((await call('POST', '/auth/confirm', { token })).status).toBe(200);
    const signedIn = await call('POST', '/auth/sign_in', { email, password: PASSWORD });
    expect(signedIn.status).toBe(200);
    return { token: signedIn.headers.get('authorization')!.slice('Bearer '.length), cookie: signedIn.headers.get('set-cookie')! };
  }

  it('signs up, refuses sign-in until confirmed (401 naming the address), confirms once, then signs in', async () => {
    const email = `player-${randomBytes(3).toString('hex')}@example.com`;
    const signUp = await call('POST', '/auth/sign_up', { email: email.toUpperCase(), password: PASSWORD, password_confirmation: PASSWORD });
    expect(signUp.status).toBe(202);
    const confirmMail = await mail.waitFor(email, /Confirm your email/);
    expect(confirmMail.raw).toContain('Content-Type: text/html');

    const early = await call('POST', '/auth/sign_in', { email, password: PASSWORD });
    expect(early.status).toBe(401);
    expect(((await early.json()) as { errors: string[] }).errors[0]).toContain(email);

    const token = linkToken(confirmMail, '/auth/confirm');
    expect((await call('POST', '/auth/confirm', { token })).status).toBe(200);
    // Single use: the same link again, a blank one and a made-up one confirm nothing.
    for (const bad of [token, '', 'x'.repeat(43)]) {
      const again = await call('POST', '/auth/confirm', { token: bad });
      expect(again.status).toBe(400);
      expect(((await again.json()) as { errors: string[] }).errors[0]).toBe('This link is invalid or has expired.');
    }

    const signIn = await call('POST', '/auth/sign_in', { email, password: PASSWORD });
    expect(signIn.status).toBe(200);
    expect(await signIn.json()).toMatchObject({ email, confirmed: true, admin: false });
    const bearer = signIn.headers.get('authorization')!;
    expect(bearer).toMatch(/^Bearer [A-Za-z0-9_-]{43}$/);
    const cookie = signIn.headers.get('set-cookie')!;
    expect(cookie).toContain(`token=${bearer.slice(7)}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);

    const info = await call('GET', '/api/v1/user_info', undefined, { authorization: bearer }, second.url);
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ email });
    // With only the cookie (a new tab), the answer hands the token back in the Authorization header.
    const byCookie = await call('GET', '/api/v1/user_info', undefined, { cookie: cookie.split(';')[0]! });
    expect(byCookie.status).toBe(200);
    expect(byCookie.headers.get('authorization')).toBe(bearer);
  });

  it('answers sign-up the same for a taken address, and mails its owner instead', async () => {
    const email = `taken-${randomBytes(3).toString('hex')}@example.com`;
    await confirmedUser(email);
    const before = mail.delivered.length;
    const fresh = await call('POST', '/auth/sign_up', { email: `new-${email}`, password: PASSWORD, password_confirmation: PASSWORD });
    const taken = await call('POST', '/auth/sign_up', { email, password: 'another password', password_confirmation: 'another password' });
    expect(taken.status).toBe(fresh.status);
    expect(await taken.json()).toEqual(await fresh.json());
    await mail.waitFor(email, /already have/, before);
  });

  it('gives unknown addresses and wrong passwords the same error', async () => {
    const email = `known-${randomBytes(3).toString('hex')}@example.com`;
    await confirmedUser(email);
    const wrong = await call('POST', '/auth/sign_in', { email, password: 'not the password' });
    const unknown = await call('POST', '/auth/sign_in', { email: `nobody-${email}`, password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it('validates every field on the server with the form rules', async () => {
    const cases: [unknown, string][] = [
      [{ email: 'not-an-email', password: PASSWORD, password_confirmation: PASSWORD }, 'email: Please enter a valid email address'],
      [{ email: `${'a'.repeat(250)}@example.com`, password: PASSWORD, password_confirmation: PASSWORD }, 'email: Email must be at most 256 characters'],
      [{ email: 'a@example.com', password: 'short', password_confirmation: 'short' }, 'password: Password must be at least 8 characters'],
      [{ email: 'a@example.com', password: PASSWORD, password_confirmation: 'different' }, 'password_confirmation: Passwords do not match'],
      [{ email: 'a@example.com' }, 'password: Password is required'],
    ];
    for (const [body, message] of cases) {
      const response = await call('POST', '/auth/sign_up', body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { errors: string[] }).errors).toContain(message);
    }
  });

  it('signs out: the token stops working at once, on every web process', async () => {
    const { token } = await confirmedUser(`out-${randomBytes(3).toString('hex')}@example.com`);
    const out = await call('DELETE', '/auth/sign_out', undefined, { authorization: `Bearer ${token}` });
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ message: 'Sign out success' });
    expect(out.headers.get('set-cookie')).toMatch(/token=;/);
    for (const base of [app.url, second.url]) {
      expect((await call('GET', '/api/v1/user_info', undefined, { authorization: `Bearer ${token}` }, base)).status).toBe(401);
    }
    expect((await call('DELETE', '/auth/sign_out', undefined, { authorization: `Bearer ${token}` })).status).toBe(401);
    // The signed-out browser's cookie is dropped by user_info, which answers "nobody" (not an error a page would log).
    const stale = await call('GET', '/api/v1/user_info', undefined, { cookie: `token=${token}` });
    expect(stale.status).toBe(200);
    expect(await stale.json()).toEqual({ email: null });
    expect(stale.headers.get('set-cookie')).toMatch(/token=;/);
  });

  it('answers user_info with no session as 200 {"email": null}: a signed-out page load logs no error', async () => {
    const anonymous = await call('GET', '/api/v1/user_info');
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({ email: null });
    expect(anonymous.headers.get('cache-control')).toBe('no-store');
    expect(anonymous.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a cookie-only state change from another origin (CSRF), and tokens in the query string', async () => {
    const { token, cookie } = await confirmedUser(`csrf-${randomBytes(3).toString('hex')}@example.com`);
    const jar = cookie.split(';')[0]!;
    expect((await call('DELETE', '/auth/sign_out', undefined, { cookie: jar, origin: 'https://evil.example' })).status).toBe(403);
    expect((await call('DELETE', '/auth/sign_out', undefined, { cookie: jar })).status).toBe(403);
    expect((await call('GET', `/api/v1/user_info?token=${token}`)).status).toBe(400);
    // From the site's own origin (PUBLIC_URL, by default http://localhost:PORT) the cookie is enough.
    expect((await call('DELETE', '/auth/sign_out', undefined, { cookie: jar, origin: `http://localhost:${app.port}` })).status).toBe(200);
  });

  it('resets a password by email: same answer for unknown addresses, single use, every session signed out, no sign-in', async () => {
    const email = `reset-${randomBytes(3).toString('hex')}@example.com`;
    const { token: oldSession } = await confirmedUser(email);
    const unknown = await call('POST', '/auth/password', { email: `nobody-${email}` });
    const before = mail.delivered.length;
    const known = await call('POST', '/auth/password', { email });
    expect(known.status).toBe(202);
    expect(await known.json()).toEqual(await unknown.json());
    const token = linkToken(await mail.waitFor(email, /Reset your/, before), '/auth/password_reset');

    const newPassword = 'a brand new password';
    const reset = await call('PUT', '/auth/password', { token, password: newPassword, password_confirmation: newPassword });
    expect(reset.status).toBe(200);
    expect(reset.headers.get('set-cookie')).toBeNull();
    expect(reset.headers.get('authorization')).toBeNull();
    expect((await call('PUT', '/auth/password', { token, password: 'yet another one', password_confirmation: 'yet another one' })).status).toBe(400);
    expect((await call('GET', '/api/v1/user_info', undefined, { authorization: `Bearer ${oldSession}` })).status).toBe(401);
    expect((await call('POST', '/auth/sign_in', { email, password: PASSWORD })).status).toBe(401);
    expect((await call('POST', '/auth/sign_in', { email, password: newPassword })).status).toBe(200);
  });

  it('limits sign-in attempts per account across web processes, with Retry-After', async () => {
    const email = `limited-${randomBytes(3).toString('hex')}@example.com`;
    let limited: Response | undefined;
    for (let i = 0; i < 12 && !limited; i++) {
      const response = await call('POST', '/auth/sign_in', { email, password: 'wrong password' }, {}, i % 2 ? second.url : app.url);
      if (response.status === 429) limited = response;
      else expect(response.status).toBe(401);
    }
    expect(limited).toBeDefined();
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('limits resends per address with the same answer whether or not the address has an account', async () => {
    const known = `resend-${randomBytes(3).toString('hex')}@example.com`;
    await call('POST', '/auth/sign_up', { email: known, password: PASSWORD, password_confirmation: PASSWORD });
    const unknown = `nobody-${known}`;
    const statuses = async (email: string) => {
      const seen: number[] = [];
      for (let i = 0; i < 4; i++) {
        ip = `10.9.${i}.${email.length}`; // a new client each time: only the per-address limit applies
        seen.push((await call('POST', '/auth/confirmation', { email })).status);
      }
      return seen;
    };
    // Three an hour per address; the fourth is refused, for an account and for no account alike.
    const knownStatuses = await statuses(known);
    expect(knownStatuses).toEqual([202, 202, 202, 429]);
    expect(await statuses(unknown)).toEqual(knownStatuses);
  });

  it('stores only a hash of each session token, never the token', async () => {
    const email = `hashed-${randomBytes(3).toString('hex')}@example.com`;
    const { token } = await confirmedUser(email);
    const db = new Client({ connectionString: site.database!.url });
    await db.connect();
    try {
      const { rows } = await db.query<{ token_hash: string; password_hash: string }>(
        `select s.token_hash, u.password_hash from sessions s join users u on u.id = s.user_id where u.email = $1`,
        [email],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
      expect(JSON.stringify(rows)).not.toContain(token);
      expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$/);
    } finally {
      await db.end();
    }
  });

  it('lets only admins read the ops endpoints', async () => {
    const player = await confirmedUser(`plain-${randomBytes(3).toString('hex')}@example.com`);
    expect((await call('GET', '/api/v1/admin/client_errors')).status).toBe(401);
    expect((await call('GET', '/api/v1/admin/client_errors', undefined, { authorization: `Bearer ${player.token}` })).status).toBe(403);
    const admin = await confirmedUser(ADMIN);
    const listed = await call('GET', '/api/v1/admin/client_errors', undefined, { authorization: `Bearer ${admin.token}` });
    expect(listed.status).toBe(200);
    expect((await call('GET', '/api/v1/user_info', undefined, { authorization: `Bearer ${admin.token}` })).json()).resolves.toMatchObject({ email: ADMIN, admin: true });
  });

  it('never writes a password, token or cookie value to the logs', () => {
    const logs = app.output() + second.output() + site.worker!.output();
    expect(logs).not.toContain(PASSWORD);
    expect(logs).not.toMatch(/Bearer [A-Za-z0-9_-]{43}/);
    expect(logs).not.toMatch(/token=[A-Za-z0-9_-]{43}/);
  });
});

describe('account settings', () => {
  const sites: InProcessSite[] = [];

  afterAll(async () => {
    await Promise.all(sites.map((s) => s.close()));
  });

  /** A site with these settings (on PostgreSQL: the settings, not the database, are the point). */
  async function appWith(env: Record<string, string>) {
    const site = await startInProcessSite({ env });
    sites.push(site);
    return site;
  }

  it('with has_login off, sends every /auth page home and answers the account API with 404', async () => {
    const app = await appWith({});
    for (const path of ['/auth/login', '/auth/signup', '/auth/forgot_password', '/auth/email_verifications?email=a@b.c&type=account_confirm']) {
      const page = await fetch(`${app.url}${path}`, { redirect: 'manual' });
      expect(page.status).toBe(302);
      expect(page.headers.get('location')).toBe('/');
    }
    // The same for client-side navigation: the payload says where to go.
    expect(await (await fetch(`${app.url}/auth/signup/_payload.json`)).json()).toMatchObject({ redirect: '/' });
    const signIn = await fetch(`${app.url}/auth/sign_in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@example.com', password: PASSWORD }),
    });
    expect(signIn.status).toBe(404);
    expect((await fetch(`${app.url}/api/v1/user_info`)).status).toBe(404);
    expect((await fetch(`${app.url}/auth/google_oauth2?origin=/`, { redirect: 'manual' })).headers.get('location')).toBe('/');
  });

  it('with only Google sign-in, shows no email form and refuses the email API', async () => {
    const app = await appWith({
      HAS_LOGIN: 'true',
      EMAIL_LOGIN: 'false',
      GOOGLE_OAUTH_LOGIN: 'true',
      GOOGLE_CLIENT_ID: 'client',
      GOOGLE_CLIENT_SECRET: 'secret',
      AUTH_SECRET: randomBytes(32).toString('base64url'),
    });
    const html = await (await fetch(`${app.url}/auth/login`)).text();
    expect(html).toContain('Sign in with Google');
    expect(html).toContain('To prevent spam, some actions require being signed in.');
    expect(html).not.toContain('type="password"');
    expect(html).not.toContain('sign in with email');
    const json = { 'content-type': 'application/json' };
    expect((await fetch(`${app.url}/auth/sign_up`, { method: 'POST', headers: json, body: JSON.stringify({ email: 'a@example.com', password: PASSWORD, password_confirmation: PASSWORD }) })).status).toBe(404);
    expect((await fetch(`${app.url}/auth/sign_in`, { method: 'POST', headers: json, body: JSON.stringify({ email: 'a@example.com', password: PASSWORD }) })).status).toBe(404);
  });

  it('with only email sign-in, shows no Google button', async () => {
    const app = await appWith({ HAS_LOGIN: 'true' });
    const html = await (await fetch(`${app.url}/auth/login`)).text();
    expect(html).toContain('type="password"');
    expect(html).not.toContain('Sign in with Google');
    expect(html).not.toContain('sign in with email');
  });
});

describe('sign-up while Redis is down', () => {
  it('answers 202 and keeps the confirmation in the outbox (the sweeper queues it), so the browser has nothing to retry', async () => {
    const site = await startInProcessSite({
      env: { MIGRATE_ON_START: 'true', HAS_LOGIN: 'true', REDIS_URL: `redis://127.0.0.1:${await freePort()}`, SMTP_URL: 'smtp://127.0.0.1:9' },
    });
    try {
      const response = await fetch(`${site.url}/auth/sign_up`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'outage@example.com', password: PASSWORD, password_confirmation: PASSWORD }),
      });
      expect(response.status).toBe(202);
      const db = await site.db();
      expect((await db.query(`SELECT count(*)::int AS n FROM mail_outbox WHERE "to" = 'outage@example.com'`)).rows[0].n).toBe(1);
      await until('the outbox fallback logged', () => site.app.output().includes('kept in the outbox: the queue is unavailable'));
    } finally {
      await site.close();
    }
  });
});
