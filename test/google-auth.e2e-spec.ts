import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { startInProcessSite, type InProcessSite } from './support/site';

interface Profile {
  sub: string;
  email?: string;
  email_verified?: boolean;
}

/**
 * Google sign-in against a real OAuth 2 / OpenID Connect provider running locally
 * (oauth2-mock-server, which also checks the PKCE verifier against the challenge).
 */
describe('Google sign-in', () => {
  let provider: ChildProcess;
  let issuer: string;
  let site: InProcessSite;

  /** The confirmation token mailed to `email` (no SMTP here: mail is written under DATA_DIR/mail). */
  async function confirmationToken(email: string): Promise<string> {
    const dir = join(site.dataDir, 'mail');
    for (let i = 0; i < 100; i++) {
      for (const file of await readdir(dir).catch(() => [] as string[])) {
        const text = (await readFile(join(dir, file), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        if (!text.includes(email)) continue;
        const token = /\/auth\/confirm#token=([A-Za-z0-9_-]{43})/.exec(text)?.[1];
        if (token) return token;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`No confirmation mail for ${email}`);
  }

  /** The provider's next userinfo answer. */
  async function setProfile(profile: Profile) {
    provider.send({ profile });
    await once(provider, 'message');
  }

  beforeAll(async () => {
    provider = fork(join(__dirname, 'support/oauth-provider.mjs'), [], { stdio: 'inherit' });
    const [first] = (await once(provider, 'message')) as [{ issuer: string }];
    issuer = first.issuer;
    site = await startInProcessSite({
      env: {
        HAS_LOGIN: 'true',
        GOOGLE_OAUTH_LOGIN: 'true',
        AUTH_SECRET: randomBytes(32).toString('base64url'),
        GOOGLE_CLIENT_ID: 'guides-test-client',
        GOOGLE_CLIENT_SECRET: 'guides-test-secret',
        GOOGLE_AUTHORIZATION_URL: `${issuer}/authorize`,
        GOOGLE_TOKEN_URL: `${issuer}/token`,
        GOOGLE_USERINFO_URL: `${issuer}/userinfo`,
      },
    });
  });

  afterAll(async () => {
    await site?.close();
    provider?.disconnect();
  });

  const cookieOf = (response: Response, name: string) =>
    response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))?.split(';')[0];

  /** Follows the round trip by hand: our redirect, the provider's consent redirect, our callback. */
  async function roundTrip(origin: string, tamper?: (callback: URL) => void) {
    const start = await fetch(`${site.url}/auth/google_oauth2?origin=${encodeURIComponent(origin)}`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location')!);
    const stateCookie = cookieOf(start, 'oauth_state');
    const consent = await fetch(authorize, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const callback = new URL(consent.headers.get('location')!);
    tamper?.(callback);
    // The callback goes to the app (PUBLIC_URL is localhost; the test reaches it on 127.0.0.1).
    const back = await fetch(`${site.url}${callback.pathname}${callback.search}`, {
      redirect: 'manual',
      headers: stateCookie ? { cookie: stateCookie } : {},
    });
    return { authorize, stateCookie, back, token: cookieOf(back, 'token') };
  }

  it('sends the browser to the provider with state and an S256 PKCE challenge', async () => {
    const { authorize, stateCookie } = await roundTrip('/levels/27');
    expect(authorize.origin).toBe(new URL(issuer).origin);
    expect(authorize.searchParams.get('client_id')).toBe('guides-test-client');
    expect(authorize.searchParams.get('scope')).toBe('openid email profile');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(authorize.searchParams.get('redirect_uri')).toMatch(/\/auth\/google_oauth2\/callback$/);
    expect(stateCookie).toBeDefined();
  });

  it('signs in a new player with a verified Google email and returns to the page they came from', async () => {
    const email = `g-${randomBytes(3).toString('hex')}@example.com`;
    const subject = `google-${randomBytes(4).toString('hex')}`;
    await setProfile({ sub: subject, email, email_verified: true });
    const { back, token } = await roundTrip('/levels/27?tab=hints');
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe('/levels/27?tab=hints');
    expect(token).toBeDefined();
    const info = await fetch(`${site.url}/api/v1/user_info`, { headers: { cookie: token! } });
    expect(await info.json()).toMatchObject({ email, confirmed: true });

    // The same Google account again: the same user, found by its subject even if the email changed.
    await setProfile({ sub: subject, email: `changed-${email}`, email_verified: true });
    const again = await roundTrip('/');
    const second = await fetch(`${site.url}/api/v1/user_info`, { headers: { cookie: again.token! } });
    expect(await second.json()).toMatchObject({ email });
  });

  it('links an existing confirmed account instead of creating a second one', async () => {
    const email = `linked-${randomBytes(3).toString('hex')}@example.com`;
    const password = 'a password long enough';
    const json = { 'content-type': 'application/json' };
    await fetch(`${site.url}/auth/sign_up`, { method: 'POST', headers: json, body: JSON.stringify({ email, password, password_confirmation: password }) });
    const confirmation = await confirmationToken(email);
    expect((await fetch(`${site.url}/auth/confirm`, { method: 'POST', headers: json, body: JSON.stringify({ token: confirmation }) })).status).toBe(200);
    await setProfile({ sub: `google-${randomBytes(4).toString('hex')}`, email: email.toUpperCase(), email_verified: true });
    const { token } = await roundTrip('/');
    expect(await (await fetch(`${site.url}/api/v1/user_info`, { headers: { cookie: token! } })).json()).toMatchObject({ email });
    // The owner's own password keeps working.
    const signIn = await fetch(`${site.url}/auth/sign_in`, { method: 'POST', headers: json, body: JSON.stringify({ email, password }) });
    expect(signIn.status).toBe(200);
  });

  it('takes an unconfirmed account back from whoever signed up with the address first', async () => {
    // Someone registers the victim's address with a password of their own and never confirms it.
    const email = `victim-${randomBytes(3).toString('hex')}@example.com`;
    const squatter = 'the squatter password';
    const json = { 'content-type': 'application/json' };
    await fetch(`${site.url}/auth/sign_up`, { method: 'POST', headers: json, body: JSON.stringify({ email, password: squatter, password_confirmation: squatter }) });
    // The real owner signs in with Google: the account is theirs, and the squatter's password is gone.
    await setProfile({ sub: `google-${randomBytes(4).toString('hex')}`, email, email_verified: true });
    const { token } = await roundTrip('/');
    expect(await (await fetch(`${site.url}/api/v1/user_info`, { headers: { cookie: token! } })).json()).toMatchObject({ email, confirmed: true });
    const attempt = await fetch(`${site.url}/auth/sign_in`, { method: 'POST', headers: json, body: JSON.stringify({ email, password: squatter }) });
    expect(attempt.status).toBe(401);
  });

  it('never returns to another site, whatever origin it is given', async () => {
    for (const origin of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      await setProfile({ sub: `google-${randomBytes(4).toString('hex')}`, email: `o-${randomBytes(3).toString('hex')}@example.com`, email_verified: true });
      const { back } = await roundTrip(origin);
      expect(back.headers.get('location')).toBe('/');
    }
  });

  it('returns to a path with U+3002 in it percent-encoded, not with a 500', async () => {
    await setProfile({ sub: `google-${randomBytes(4).toString('hex')}`, email: `u-${randomBytes(3).toString('hex')}@example.com`, email_verified: true });
    const { back } = await roundTrip('/\u3002evil.com');
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe('/%E3%80%82evil.com');
  });

  it('refuses a callback whose state does not match, one without the state cookie, and an unverified email', async () => {
    await setProfile({ sub: `google-${randomBytes(4).toString('hex')}`, email: `x-${randomBytes(3).toString('hex')}@example.com`, email_verified: true });
    const forged = await roundTrip('/', (callback) => callback.searchParams.set('state', 'forged-state-value-000000'));
    expect(forged.back.headers.get('location')).toBe('/auth/login?error=google');
    expect(forged.token).toBeUndefined();

    const start = await fetch(`${site.url}/auth/google_oauth2?origin=/`, { redirect: 'manual' });
    const consent = await fetch(start.headers.get('location')!, { redirect: 'manual' });
    const callback = new URL(consent.headers.get('location')!);
    const noCookie = await fetch(`${site.url}${callback.pathname}${callback.search}`, { redirect: 'manual' });
    expect(noCookie.headers.get('location')).toBe('/auth/login?error=google');
    expect(cookieOf(noCookie, 'token')).toBeUndefined();

    await setProfile({ sub: `google-${randomBytes(4).toString('hex')}`, email: `u-${randomBytes(3).toString('hex')}@example.com`, email_verified: false });
    const unverified = await roundTrip('/');
    expect(unverified.back.headers.get('location')).toBe('/auth/login?error=google');
    expect(unverified.token).toBeUndefined();
  });
});
