import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runUntilExit, startApp, WORKER } from './support/app-process';
import { createTestDatabase } from './support/services';
import { startSite } from './support/site';
import { until } from './support/until';

const ADMIN = 'ops@example.com';
const PASSWORD = 'a long enough password';

/** The token of the confirmation link in the newest mail written under DATA_DIR/mail (no SMTP configured). */
async function confirmationTokenFromMailDir(dir: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));
    for (const file of files) {
      // Read as it is: the text part is not encoded, so the link in the file works as copied.
      const text = await readFile(join(dir, file), 'utf8');
      const token = /\/auth\/confirm#token=([A-Za-z0-9_-]{43})/.exec(text)?.[1];
      if (token) return token;
    }
    if (Date.now() > deadline) throw new Error(`No confirmation mail in ${dir}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * A fresh machine with nothing configured: the production build starts on the embedded database,
 * applies the migrations, serves pages, and keeps its data across a restart.
 */
describe('start-up with nothing configured', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'guides-start-'));
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  // DATA_DIR only keeps the test's files out of the checkout's var/; an admin account reads back.
  const env = () => ({ DATA_DIR: dataDir, HAS_LOGIN: 'true', ADMIN_EMAILS: ADMIN });

  it('serves a page from the embedded database, then finds the same data after a restart', async () => {
    const first = await startApp(env());
    const steps: string[] = [];
    const step = (name: string) => steps.push(`${new Date().toISOString()} ${name}`);
    try {
      step('started');
      // /healthz answers before the start-up line is logged: wait for the lines, never read once.
      await first.logged('embedded database');
      await first.logged("Applied 'Migration20261122000000ErrorReports'");
      const page = await fetch(`${first.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Stuck on a level?');
      expect(await (await fetch(`${first.url}/readyz`)).json()).toMatchObject({ checks: { database: 'up' } });

      const posted = await fetch(`${first.url}/api/v1/log_client_error`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ error: { error_type: 'CLIENT_ERROR', origin_type: 1, message: 'kept across restarts' } }),
      });
      expect(posted.status).toBe(204);
      step('posted');
    } finally {
      const code = await first.stop();
      step(`stopped with ${code}`);
      if (code !== 0) console.log(steps.join('\n'), first.output().slice(-4000));
      expect(code).toBe(0);
    }
    expect(await readdir(join(dataDir, 'pglite'))).toContain('PG_VERSION');

    const second = await startApp(env());
    try {
      expect(second.stdout()).not.toContain('Applied');
      // With nothing configured, jobs run in the web process and mail is written under DATA_DIR/mail.
      const json = { 'content-type': 'application/json' };
      const signUp = await fetch(`${second.url}/auth/sign_up`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email: ADMIN, password: PASSWORD, password_confirmation: PASSWORD }),
      });
      expect(signUp.status).toBe(202);
      const token = await confirmationTokenFromMailDir(join(dataDir, 'mail'));
      // The local try-out (nothing configured) prints the working link in the terminal too.
      await until('the link in the log', () => second.stdout().includes(`/auth/confirm#token=${token}`));
      await second.logged(/"Confirm your email[^"]*" written to /);
      expect((await fetch(`${second.url}/auth/confirm`, { method: 'POST', headers: json, body: JSON.stringify({ token }) })).status).toBe(200);
      const signIn = await fetch(`${second.url}/auth/sign_in`, { method: 'POST', headers: json, body: JSON.stringify({ email: ADMIN, password: PASSWORD }) });
      expect(signIn.status).toBe(200);
      const listed = await fetch(`${second.url}/api/v1/admin/client_errors`, {
        headers: { authorization: signIn.headers.get('authorization')! },
      });
      expect((await listed.json()).data).toEqual([expect.objectContaining({ message: 'kept across restarts', count: 1 })]);
      const page = await fetch(`${second.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Stuck on a level?');
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 240_000);

  it('says what the local try-out runs and where, and names settings that do not fit together in one line', async () => {
    const data = await mkdtemp(join(tmpdir(), 'guides-tryout-'));
    try {
      const app = await startApp({ DATA_DIR: data, HAS_LOGIN: 'false', HAS_PAYMENT: 'true', ADMIN_EMAILS: 'ops@example.com' });
      try {
        await until('the start-up summary', () => app.stdout().includes('Local try-out'));
        const warnings = app.stdout().split('\n').filter((line) => line.includes('Settings that do not fit together'));
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toContain('HAS_PAYMENT=true without HAS_LOGIN=true: credits belong to accounts, so payments stay off');
        expect(warnings[0]).toContain('ADMIN_EMAILS without HAS_LOGIN=true');
        expect(app.stdout()).toContain('Local try-out (nothing configured): Accounts off; credits and payments off');
        expect((await fetch(`${app.url}/pricing`)).status).toBe(404);
      } finally {
        expect(await app.stop()).toBe(0);
      }
      const whole = await startApp({ DATA_DIR: data });
      try {
        await until('the start-up summary', () => whole.stdout().includes('Local try-out'));
        expect(whole.stdout()).not.toContain('Settings that do not fit together');
        expect(whole.stdout()).toContain('Accounts on; credits and payments TEST MODE (the local test checkout: no money is taken)');
        expect(whole.stdout()).toContain(`Sign up at ${whole.url.replace('127.0.0.1', 'localhost')}/auth/signup`);
        for (const path of ['/pricing', '/tools/image', '/auth/signup']) expect([path, (await fetch(`${whole.url}${path}`)).status]).toEqual([path, 200]);
        // The terminal says localhost; a newcomer who types 127.0.0.1 or [::1] can still sign up there.
        const port = new URL(whole.url).port;
        const signUpFrom = async (origin: string, email: string) =>
          (
            await fetch(`${whole.url}/auth/sign_up`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', origin, 'sec-fetch-site': 'same-origin' },
              body: JSON.stringify({ email, password: PASSWORD, password_confirmation: PASSWORD }),
            })
          ).status;
        expect(await signUpFrom(`http://127.0.0.1:${port}`, 'ipv4@example.com')).toBe(202);
        expect(await signUpFrom(`http://[::1]:${port}`, 'ipv6@example.com')).toBe(202);
        expect(await signUpFrom(`http://localhost:${port}`, 'name@example.com')).toBe(202);
        // Another port on the same machine is another site.
        expect(await signUpFrom(`http://127.0.0.1:${Number(port) + 1}`, 'other@example.com')).toBe(403);
      } finally {
        expect(await whole.stop()).toBe(0);
      }
    } finally {
      await rm(data, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses to start on a bad setting and names the variable', async () => {
    const { code, output } = await runUntilExit({ PORT: 'eighty', HAS_PAYMENT: 'perhaps' });
    expect(code).toBe(1);
    expect(output).toContain('Invalid configuration');
    expect(output).toContain('PORT:');
    expect(output).toContain('HAS_PAYMENT:');
    expect(output).not.toMatch(/\n\s+at /);
  });

  it('refuses a production start that would hand out credits without a payment provider, naming the settings', async () => {
    const data = await mkdtemp(join(tmpdir(), 'guides-no-stripe-'));
    try {
      const { code, output } = await runUntilExit({ DATA_DIR: data, NODE_ENV: 'production', HAS_LOGIN: 'true', HAS_PAYMENT: 'true' });
      expect(code).toBe(1);
      expect(output).toContain('Invalid configuration:\n  - HAS_PAYMENT: is on with NODE_ENV=production but STRIPE_SECRET_KEY is not set');
      expect(output).toContain('TEST_PAYMENTS=true');
      expect(output).not.toMatch(/\n\s+at /);
      // Switched on explicitly, the test checkout runs in production too, and says so.
      const app = await startApp({ DATA_DIR: data, NODE_ENV: 'production', HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true' });
      try {
        await until('the start-up summary', () => app.stdout().includes('credits and payments TEST MODE'));
      } finally {
        expect(await app.stop()).toBe(0);
      }
    } finally {
      await rm(data, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses to start web or worker with workers and a file image store nobody said is shared, and says why', async () => {
    const data = await mkdtemp(join(tmpdir(), 'guides-unshared-'));
    try {
      // Nothing is reached before the refusal: the addresses need not answer.
      const env = { DATA_DIR: data, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', REDIS_URL: 'redis://127.0.0.1:1', HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true' };
      for (const script of [undefined, WORKER]) {
        const { code, output } = await runUntilExit(env, script ? { script } : {});
        expect(code).toBe(1);
        expect(output).toContain('Invalid configuration:\n  - IMAGE_STORE=file with REDIS_URL: the workers convert the images');
        expect(output).toContain('IMAGE_STORE_SHARED=true');
        expect(output).not.toMatch(/\n\s+at /);
      }
    } finally {
      await rm(data, { recursive: true, force: true });
    }
  }, 60_000);

  it('logs a malformed content file at start, names it, and keeps serving', async () => {
    const contentDir = await mkdtemp(join(tmpdir(), 'guides-bad-content-'));
    await cp(join(ROOT, 'content'), contentDir, { recursive: true });
    await writeFile(join(contentDir, 'levels', '500.md'), '---\nlevel: 500\ntitle: Broken\n---\n');
    // On PostgreSQL: the content import, not the database, is the point.
    const site = await startSite({ env: { CONTENT_DIR: contentDir } });
    const { app } = site;
    try {
      await app.logged('Level guides not imported: levels/500.md: difficulty: ');
      await app.logged('Imported pages');
      const levels = await fetch(`${app.url}/levels`);
      expect(levels.status).toBe(200);
      expect(await levels.text()).toContain('No guides here yet.');
    } finally {
      expect(await app.stop()).toBe(0);
      await site.close();
      await rm(contentDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses to start with payments on and a broken pricing file, naming the field, without a stack trace', async () => {
    const contentDir = await mkdtemp(join(tmpdir(), 'guides-bad-pricing-'));
    const database = await createTestDatabase();
    await cp(join(ROOT, 'content'), contentDir, { recursive: true });
    await writeFile(join(contentDir, 'pricing.yaml'), 'packs:\n  - id: starter\n    name: Starter\n    credits: 100\n    validity_days: 30\n    price_cents: 2.99\n');
    try {
      const { code, output } = await runUntilExit({ DATABASE_URL: database.url, CONTENT_DIR: contentDir, HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true' });
      expect(code).toBe(1);
      expect(output).toContain(`Invalid configuration:\n  - ${join(contentDir, 'pricing.yaml')}: packs.0.price_cents: Invalid input: expected int`);
      expect(output).not.toMatch(/\n\s+at /);
    } finally {
      await rm(contentDir, { recursive: true, force: true });
      await database.drop();
    }
  }, 120_000);
});
