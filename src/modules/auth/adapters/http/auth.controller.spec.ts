import { ADMIN_EMAIL, errorOf, testConfig, useControllers } from 'src/platform/http/testing/controller-harness';
import { RecordingMailOutbox } from 'src/platform/mail/testing/recording-mail-outbox';
import { RecordingJobQueue } from 'src/platform/queue/testing/recording-job-queue';
import { AuthService } from '../../application/auth.service';
import { authServiceProviders, PASSWORD, tokenFrom } from '../../testing/auth-test-bed';
import { TestAccounts } from '../../testing/test-accounts';
import { AuthController } from './auth.controller';

const SITE = 'https://guides.example';

describe('AuthController (in process)', () => {
  let accounts: TestAccounts;
  let outbox: RecordingMailOutbox;
  let queue: RecordingJobQueue;
  let env: Record<string, string>;
  beforeEach(() => {
    accounts = new TestAccounts();
    outbox = new RecordingMailOutbox();
    // The emailed links' job, run at once as an instant worker would.
    queue = new RecordingJobQueue().handle('auth.link-request', async (request) => (await api.get(AuthService)).deliverLinkRequest(request));
    env = {};
  });
  const api = useControllers(() => ({
    controllers: [AuthController],
    providers: [...authServiceProviders({ outbox, queue }), ...accounts.providers()],
    config: testConfig(env),
  }));

  const post = (url: string, payload: object, headers: Record<string, string> = {}) => api.inject({ method: 'POST', url, payload, headers });
  const lastLink = (path: string) => tokenFrom(outbox.sent.at(-1)!.text, path);

  /** Signs up and confirms `email` through the API; answers the sign-in's response. */
  async function signUpAndIn(email = 'player@example.com') {
    const signedUp = await post('/auth/sign_up', { email, password: PASSWORD, password_confirmation: PASSWORD });
    expect([signedUp.statusCode, signedUp.json()]).toEqual([202, { message: 'Check your inbox: we sent you a confirmation link.' }]);
    const confirmed = await post('/auth/confirm', { token: lastLink('/auth/confirm') });
    expect([confirmed.statusCode, confirmed.json()]).toEqual([200, { message: 'Your email is confirmed. You can sign in now.' }]);
    return post('/auth/sign_in', { email, password: PASSWORD });
  }

  it('signs up, confirms and signs in: the user in the body, the token in the Authorization header and an HttpOnly cookie', async () => {
    const signedIn = await signUpAndIn();
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toEqual({ email: 'player@example.com', confirmed: true, admin: false, created_at: expect.any(String) });
    const token = signedIn.headers.authorization!.toString().replace('Bearer ', '');
    expect(signedIn.cookies.find((c) => c.name === 'token')).toMatchObject({ value: token, httpOnly: true, sameSite: 'Lax', secure: true, path: '/' });
    expect(signedIn.headers['cache-control']).toBe('no-store');
    const me = await api.inject({ method: 'GET', url: '/api/v1/user_info', cookies: { token } });
    expect(me.json()).toMatchObject({ email: 'player@example.com', admin: false });
    expect(me.headers.authorization).toBe(`Bearer ${token}`);
  });

  it('refuses a wrong password and an unconfirmed account (401), and a sign-up out of shape with its field (400)', async () => {
    await signUpAndIn();
    const wrong = await post('/auth/sign_in', { email: 'player@example.com', password: 'not the password' });
    expect([wrong.statusCode, errorOf(wrong)]).toEqual([401, { code: 'AUTH.INVALID_CREDENTIALS', errors: ['Invalid email or password'] }]);
    await post('/auth/sign_up', { email: 'new@example.com', password: PASSWORD, password_confirmation: PASSWORD });
    const unconfirmed = await post('/auth/sign_in', { email: 'new@example.com', password: PASSWORD });
    expect([unconfirmed.statusCode, errorOf(unconfirmed).code]).toEqual([401, 'AUTH.UNCONFIRMED']);
    const mismatch = await post('/auth/sign_up', { email: 'x@example.com', password: PASSWORD, password_confirmation: 'other password' });
    expect([mismatch.statusCode, errorOf(mismatch).errors]).toEqual([400, ['password_confirmation: Passwords do not match']]);
    const short = await post('/auth/sign_up', { email: 'not-an-address', password: 'short', password_confirmation: 'short' });
    expect(errorOf(short).errors).toEqual(['email: Please enter a valid email address', 'password: Password must be at least 8 characters']);
  });

  it('signs out: the session stops working at once, and user_info drops the ended cookie', async () => {
    const token = (await signUpAndIn()).headers.authorization!.toString().replace('Bearer ', '');
    const out = await api.inject({ method: 'DELETE', url: '/auth/sign_out', headers: { authorization: `Bearer ${token}` } });
    expect([out.statusCode, out.json()]).toEqual([200, { message: 'Sign out success' }]);
    const after = await api.inject({ method: 'GET', url: '/api/v1/user_info', headers: { authorization: `Bearer ${token}` } });
    expect([after.statusCode, errorOf(after).code]).toEqual([401, 'AUTH.SIGN_IN_REQUIRED']);
    const byCookie = await api.inject({ method: 'GET', url: '/api/v1/user_info', cookies: { token } });
    expect(byCookie.json()).toEqual({ email: null });
    expect(byCookie.cookies.find((c) => c.name === 'token')).toMatchObject({ value: '', path: '/' });
    expect((await api.inject({ method: 'GET', url: '/api/v1/user_info' })).json()).toEqual({ email: null });
  });

  it("says who is an admin, and answers every address's link request alike", async () => {
    const admin = await accounts.signIn(ADMIN_EMAIL);
    expect((await api.inject({ method: 'GET', url: '/api/v1/user_info', headers: admin.headers })).json()).toMatchObject({ email: ADMIN_EMAIL, admin: true });
    const known = await post('/auth/sign_in_link', { email: ADMIN_EMAIL });
    const unknown = await post('/auth/sign_in_link', { email: 'nobody@example.com' });
    expect([known.statusCode, known.json()]).toEqual([unknown.statusCode, unknown.json()]);
    expect(outbox.sent.map((m) => m.to)).toEqual([ADMIN_EMAIL]);
    const linked = await post('/auth/sign_in_with_link', { token: lastLink('/auth/sign_in_link') });
    expect([linked.statusCode, linked.json().email]).toEqual([200, ADMIN_EMAIL]);
    const again = await post('/auth/sign_in_with_link', { token: lastLink('/auth/sign_in_link') });
    expect([again.statusCode, errorOf(again).code]).toEqual([400, 'AUTH.INVALID_LINK']);
  });

  it('resets a password with the emailed link, and every session signed in before stops working', async () => {
    const token = (await signUpAndIn()).headers.authorization!.toString().replace('Bearer ', '');
    expect((await post('/auth/password', { email: 'player@example.com' })).statusCode).toBe(202);
    const reset = await api.inject({ method: 'PUT', url: '/auth/password', payload: { token: lastLink('/auth/password_reset'), password: 'a new password', password_confirmation: 'a new password' } });
    expect([reset.statusCode, reset.json()]).toEqual([200, { message: 'Your password is changed. Please sign in with it.' }]);
    expect((await api.inject({ method: 'GET', url: '/api/v1/user_info', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
    expect((await post('/auth/sign_in', { email: 'player@example.com', password: 'a new password' })).statusCode).toBe(200);
  });

  it("refuses another site's writes (403) and a token in the URL (400); same-site and non-browser writes pass", async () => {
    const crossSite = await post('/auth/sign_in', { email: 'player@example.com', password: PASSWORD }, { origin: 'https://evil.example' });
    expect([crossSite.statusCode, errorOf(crossSite).code]).toEqual([403, 'AUTH.CROSS_SITE']);
    const fetchSite = await post('/auth/sign_up', { email: 'a@example.com', password: PASSWORD, password_confirmation: PASSWORD }, { 'sec-fetch-site': 'cross-site' });
    expect(fetchSite.statusCode).toBe(403);
    expect((await post('/auth/sign_up', { email: 'a@example.com', password: PASSWORD, password_confirmation: PASSWORD }, { origin: SITE })).statusCode).toBe(202);
    const { token } = await accounts.signIn();
    const inUrl = await api.inject({ method: 'GET', url: `/api/v1/user_info?token=${token}` });
    expect([inUrl.statusCode, errorOf(inUrl).code]).toEqual([400, 'AUTH.TOKEN_IN_URL']);
    // The session cookie alone cannot sign another site's request out.
    const cookieOut = await api.inject({ method: 'DELETE', url: '/auth/sign_out', cookies: { token }, headers: { origin: 'https://evil.example' } });
    expect([cookieOut.statusCode, errorOf(cookieOut).code]).toEqual([403, 'AUTH.CROSS_SITE']);
  });

  const valid: [string, object][] = [
    ['/auth/sign_up', { email: 'player@example.com', password: PASSWORD, password_confirmation: PASSWORD }],
    ['/auth/sign_in', { email: 'player@example.com', password: PASSWORD }],
    ['/auth/sign_in_link', { email: 'player@example.com' }],
    ['/auth/password', { email: 'player@example.com' }],
  ];

  it('answers 404 to the email routes without email sign-in', async () => {
    env = { EMAIL_LOGIN: 'false' };
    for (const [url, payload] of valid) {
      const refused = await post(url, payload);
      expect([url, refused.statusCode, errorOf(refused).code]).toEqual([url, 404, 'AUTH.DISABLED']);
    }
    expect(outbox.sent).toEqual([]);
  });

  it('answers 404 to every account route without accounts (HAS_LOGIN off)', async () => {
    env = { HAS_LOGIN: 'false' };
    for (const [url, payload] of [...valid, ['/auth/confirm', { token: 'x' }] as [string, object]]) {
      const refused = await post(url, payload);
      expect([url, refused.statusCode, errorOf(refused).code]).toEqual([url, 404, 'AUTH.DISABLED']);
    }
    expect(errorOf(await api.inject({ method: 'GET', url: '/api/v1/user_info', headers: { authorization: `Bearer ${'x'.repeat(43)}` } })).code).toBe('AUTH.DISABLED');
  });
});
