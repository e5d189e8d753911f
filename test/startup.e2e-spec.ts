import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runUntilExit, startApp } from './support/app-process';
import { createTestDatabase } from './support/services';
import { startSite } from './support/site';

const ADMIN = 'ops@example.com';
const PASSWORD = 'a long enough password';

/** The token of the confirmation link in the newest mail written under DATA_DIR/mail (no SMTP configured). */
async function confirmationTokenFromMailDir(dir: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));
    for (const file of files) {
      const text = (await readFile(join(dir, file), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
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
      expect(first.stdout()).toContain('embedded database');
      expect(first.stdout()).toContain("Applied 'Migration20261122000000ErrorReports'");
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
      // Outside development the log names the mail's file, never its link (a live credential).
      expect(second.stdout()).toMatch(/"Confirm your email[^"]*" written to /);
      expect(second.stdout()).not.toContain('/auth/confirm#token=');
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

  it('logs a malformed content file at start, names it, and keeps serving', async () => {
    const contentDir = await mkdtemp(join(tmpdir(), 'guides-bad-content-'));
    await cp(join(ROOT, 'content'), contentDir, { recursive: true });
    await writeFile(join(contentDir, 'levels', '500.md'), '---\nlevel: 500\ntitle: Broken\n---\n');
    // On PostgreSQL: the content import, not the database, is the point.
    const site = await startSite({ env: { CONTENT_DIR: contentDir } });
    const { app } = site;
    try {
      expect(app.stdout()).toContain('Level guides not imported: levels/500.md: difficulty: ');
      expect(app.stdout()).toContain('Imported pages');
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
      const { code, output } = await runUntilExit({ DATABASE_URL: database.url, CONTENT_DIR: contentDir, HAS_LOGIN: 'true', HAS_PAYMENT: 'true' });
      expect(code).toBe(1);
      expect(output).toContain(`Invalid configuration:\n  - ${join(contentDir, 'pricing.yaml')}: packs.0.price_cents: Invalid input: expected int`);
      expect(output).not.toMatch(/\n\s+at /);
    } finally {
      await rm(contentDir, { recursive: true, force: true });
      await database.drop();
    }
  }, 120_000);
});
