import { randomBytes } from 'node:crypto';
import { linkToken } from './support/mail-sink';
import { REDIS_URL } from './support/services';
import { startInProcessSite, useInProcessSite, useSite, type InProcessSite } from './support/site';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy';
import { until } from './support/until';

const PASSWORD = 'correct horse battery';

/** A visitor at `ip` (the app trusts one proxy hop, as behind a load balancer). */
const post = (app: { url: string }, path: string, body: unknown, ip: string) =>
  fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify(body),
  });

const randomIp = () => `10.${[1, 2, 3].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;
const unique = (name: string) => `${name}-${randomBytes(4).toString('hex')}@example.com`;

/** Signs up through the API (the app hashes the password) and marks the address confirmed. */
async function confirmedAccount(site: Pick<InProcessSite, 'url' | 'db'>, email: string): Promise<void> {
  expect((await post(site, '/auth/sign_up', { email, password: PASSWORD, password_confirmation: PASSWORD }, randomIp())).status).toBe(202);
  const db = await site.db();
  expect((await db.query(`update users set confirmed_at = now() where email = $1`, [email])).rowCount).toBe(1);
}

describe('sign-in limits on PostgreSQL and Redis', () => {
  const site = useInProcessSite({
    redis: true,
    env: {
      HAS_LOGIN: 'true',
      MIGRATE_ON_START: 'true',
      TRUST_PROXY: '1',
      // One hash at a time and two waiting: a small flood fills the queue.
      AUTH_HASH_CONCURRENCY: '1',
      AUTH_HASH_QUEUE: '2',
    },
  });

  it("lets the owner in from their own address after a stranger's ten wrong passwords, and stops the stranger", async () => {
    const email = unique('owner');
    await confirmedAccount(site, email);
    const stranger = randomIp();
    for (let i = 0; i < 10; i++) expect((await post(site, '/auth/sign_in', { email, password: `guess ${i}` }, stranger)).status).toBe(401);

    const refused = await post(site, '/auth/sign_in', { email, password: PASSWORD }, stranger);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'AUTH.TOO_MANY_ATTEMPTS' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    // Before: 429 for 15 minutes for everyone. Now the owner's right password works from elsewhere.
    const owner = await post(site, '/auth/sign_in', { email, password: PASSWORD }, randomIp());
    expect(owner.status).toBe(200);
  });

  it('answers a flood of sign-ins beyond the hashing queue with 503 AUTH.BUSY and Retry-After, and keeps serving pages', async () => {
    const flood = Array.from({ length: 24 }, (_, i) => post(site, '/auth/sign_in', { email: unique(`flood${i}`), password: 'whatever it is' }, randomIp()));
    const page = fetch(`${site.url}/levels/27`);
    const answers = await Promise.all(flood);
    expect((await page).status).toBe(200);

    const statuses = answers.map((r) => r.status);
    expect(statuses.every((s) => s === 401 || s === 503)).toBe(true);
    const busy = answers.filter((r) => r.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(3);
    expect(await busy[0]!.json()).toEqual({ errors: ['We are very busy right now. Please try again in a moment.'], code: 'AUTH.BUSY' });
    expect(busy[0]!.headers.get('retry-after')).toBe('2');

    // Once the flood has passed, sign-in answers normally again.
    expect((await post(site, '/auth/sign_in', { email: unique('after'), password: 'whatever it is' }, randomIp())).status).toBe(401);
  });
});

describe('wrong passwords per account per hour, from many addresses', () => {
  const CAP = 12;
  // The built site: the worker process sends the mail.
  const site = useSite({
    redis: true,
    worker: true,
    mail: true,
    env: {
      HAS_LOGIN: 'true',
      MIGRATE_ON_START: 'true',
      TRUST_PROXY: '1',
      AUTH_SIGN_IN_FAILURES_PER_HOUR: String(CAP),
      // The slowdown after ten failures is not the point here: its longest wait is made short.
      AUTH_SIGN_IN_MAX_DELAY_MS: '20',
      // One hash at a time and one waiting: parallel checks of one account beyond two would answer 503.
      AUTH_HASH_CONCURRENCY: '1',
      AUTH_HASH_QUEUE: '1',
    },
  });

  const PAUSED = {
    errors: [
      'Too many wrong passwords were tried for this account in the last hour, so password sign-in is paused for it. We can email you a one-time sign-in link instead.',
    ],
    code: 'AUTH.PASSWORD_SIGN_IN_PAUSED',
    sign_in_link: true,
  };

  it('checks only the hourly cap of guesses from as many addresses, refuses the rest, and lets the owner in with a mailed link', async () => {
    const email = unique('target');
    await confirmedAccount(site, email);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < CAP + 8; i++) {
      last = await post(site, '/auth/sign_in', { email, password: `guess ${i}` }, randomIp());
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(CAP).fill(401), ...Array(8).fill(429)]);
    expect(await last!.json()).toEqual(PAUSED);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(60);

    // The right password is not checked either: the guesser learns nothing from it.
    const owner = await post(site, '/auth/sign_in', { email, password: PASSWORD }, randomIp());
    expect([owner.status, await owner.json()]).toEqual([429, PAUSED]);

    // The link: the same answer for an address without an account, a mail for the owner.
    const before = site.mail!.delivered.length;
    const asked = await post(site, '/auth/sign_in_link', { email }, randomIp());
    const nobody = await post(site, '/auth/sign_in_link', { email: unique('nobody') }, randomIp());
    expect(asked.status).toBe(202);
    expect([nobody.status, await nobody.json()]).toEqual([202, await asked.json()]);
    const token = linkToken(await site.mail!.waitFor(email, /sign-in link/, before), '/auth/sign_in_link');
    const signedIn = await post(site, '/auth/sign_in_with_link', { token }, randomIp());
    expect(signedIn.status).toBe(200);
    expect(await signedIn.json()).toMatchObject({ email });
    const info = await fetch(`${site.url}/api/v1/user_info`, { headers: { authorization: signedIn.headers.get('authorization')! } });
    expect(await info.json()).toMatchObject({ email });
    // Once only.
    expect((await post(site, '/auth/sign_in_with_link', { token }, randomIp())).status).toBe(400);
  });

  it("lets the owner in by mailed link and by reset password after any number of a stranger's guesses and link requests, with their mail bounded", async () => {
    const email = unique('locked');
    await confirmedAccount(site, email);
    for (let i = 0; i < CAP + 2; i++) await post(site, '/auth/sign_in', { email, password: `guess ${i}` }, randomIp());
    const before = site.mail!.delivered.length;
    // The stranger asks for sign-in links and reset links again and again, from many addresses.
    for (let i = 0; i < 12; i++) {
      expect((await post(site, '/auth/sign_in_link', { email }, randomIp())).status).toBe(202);
      expect((await post(site, '/auth/password', { email }, randomIp())).status).toBe(202);
    }
    // The owner's own requests are never refused (before: 429 AUTH.TOO_MANY_ATTEMPTS for an hour).
    const ownIp = randomIp();
    const asked = await post(site, '/auth/sign_in_link', { email }, ownIp);
    expect([asked.status, asked.headers.get('retry-after')]).toEqual([202, null]);
    const forgot = await post(site, '/auth/password', { email }, ownIp);
    expect([forgot.status, forgot.headers.get('retry-after')]).toEqual([202, null]);

    // Every link in the owner's mailbox is one live link per purpose, re-sent a bounded number of times.
    const linkMail = await site.mail!.waitFor(email, /sign-in link/, before);
    await site.mail!.waitFor(email, /reset/i, before);
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // the worker sends what it was given
    const mails = site.mail!.delivered.slice(before).filter((m) => m.to.includes(email));
    const signInLinks = new Set(mails.filter((m) => /sign-in link/.test(m.subject)).map((m) => linkToken(m, '/auth/sign_in_link')));
    const resetLinks = new Set(mails.filter((m) => /reset/i.test(m.subject)).map((m) => linkToken(m, '/auth/password_reset')));
    expect([signInLinks.size, resetLinks.size]).toEqual([1, 1]);
    expect(mails.length).toBeLessThanOrEqual(8);

    const signedIn = await post(site, '/auth/sign_in_with_link', { token: linkToken(linkMail, '/auth/sign_in_link') }, ownIp);
    expect(signedIn.status).toBe(200);

    // A reset proves the mailbox: the new password is checked at once, not paused for the hour.
    const newPassword = 'a brand new password';
    const [resetToken] = [...resetLinks];
    const reset = await fetch(`${site.url}/auth/password`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ownIp },
      body: JSON.stringify({ token: resetToken, password: newPassword, password_confirmation: newPassword }),
    });
    expect(reset.status).toBe(200);
    expect((await post(site, '/auth/sign_in', { email, password: newPassword }, ownIp)).status).toBe(200);
  });

  it('checks 25 parallel guesses for one account one at a time: exactly the cap checked, none turned away as busy', async () => {
    const email = unique('parallel');
    await confirmedAccount(site, email);
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => post(site, '/auth/sign_in', { email, password: `guess ${i}` }, randomIp())));
    const statuses = answers.map((r) => r.status).sort();
    // Unserialised, the 25 would read the count together (all checked) and overflow the hashing
    // queue of two (503 AUTH.BUSY); one at a time, exactly CAP are checked and the rest refused.
    expect(statuses).toEqual([...Array(CAP).fill(401), ...Array(25 - CAP).fill(429)]);
  });
});

describe('limits while Redis is down', () => {
  let redisProxy: TcpProxy;
  let site: InProcessSite;

  beforeAll(async () => {
    const redis = new URL(REDIS_URL);
    redisProxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    site = await startInProcessSite({ redis: true, env: { REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`, HAS_LOGIN: 'true', MIGRATE_ON_START: 'true', TRUST_PROXY: '1' } });
    redisProxy.cut();
  });

  afterAll(async () => {
    await site?.close();
    await redisProxy?.close();
  });

  it('still refuses the 11th sign-in for one address from one client (counted in memory)', async () => {
    const email = unique('outage');
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await post(site, '/auth/sign_in', { email, password: `guess ${i}` }, ip)).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    await until('the fallback logged', () => site.app.output().includes('attempt limits are counted in this process until it is back'));
  });

  it("still applies the route's per-IP limit (20 sign-ins in 15 minutes)", async () => {
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await post(site, '/auth/sign_in', { email: unique(`ip${i}`), password: 'a guess here' }, ip)).status);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
    await until('the fallback logged', () => site.app.output().includes('rate limits are counted in this process until it is back'));
  });
});
