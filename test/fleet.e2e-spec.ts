import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { CONTENT_CLI, runUntilExit, type RunningApp, type RunningWorker } from './support/app-process';
import { startSite, type Site } from './support/site';
import { until } from './support/until';

/**
 * Issue 33, "the fleet behaves as one site": two web processes and two workers on one PostgreSQL
 * and one Redis, as a deployment runs them.
 */
describe('the fleet: two web processes and two workers on one PostgreSQL and Redis', () => {
  let contentDir: string;
  let site: Site;
  let second: RunningApp;
  const workers: RunningWorker[] = [];
  const webs = () => [site.app, second];
  const ADMIN = 'fleet-admin@example.com';

  beforeAll(async () => {
    contentDir = await mkdtemp(join(tmpdir(), 'guides-fleet-'));
    await cp(join(__dirname, 'fixtures/content'), contentDir, { recursive: true });
    // The credit packs, which payments (and so the image tool) need.
    await cp(join(__dirname, '../content/pricing.yaml'), join(contentDir, 'pricing.yaml'));
    site = await startSite({
      redis: true,
      env: {
        MIGRATE_ON_START: 'true',
        CONTENT_DIR: contentDir,
        NODE_ENV: 'production',
        HAS_LOGIN: 'true',
        // Payments on (the test checkout) bring the image tool and its housekeeping.
        HAS_PAYMENT: 'true',
        TEST_PAYMENTS: 'true',
        IMAGE_STORE_SHARED: 'true',
        // The pages' cache keeps its default lifetime (60 s): only the change notice can beat it.
        // The image housekeeping every second, so a few periods pass quickly.
        IMAGE_HOUSEKEEPING_INTERVAL_MS: '1000',
        ADMIN_EMAILS: ADMIN,
        IMAGE_MAX_UNFINISHED: '10',
        TRUST_PROXY: 'true',
      },
    });
    second = await site.startApp();
    for (let i = 0; i < 2; i++) workers.push(await site.startWorker({ LOG_LEVEL: 'debug' }));
  });

  afterAll(async () => {
    await site?.close();
    await rm(contentDir, { recursive: true, force: true });
  });

  it('signs out on one web process, and the other refuses the token at once', async () => {
    const token = await site.signedInUser('fleet-out@example.com');
    const userInfo = (base: string) => fetch(`${base}/api/v1/user_info`, { headers: { authorization: `Bearer ${token}` } });
    for (const web of webs()) expect((await userInfo(web.url)).status).toBe(200);
    const out = await fetch(`${second.url}/auth/sign_out`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
    expect(out.status).toBe(200);
    for (const web of webs()) expect((await userInfo(web.url)).status).toBe(401);
  });

  it('shows a guide imported by the CLI on both web processes within 2 s, long before the cache would expire', async () => {
    const page = async (base: string) => (await fetch(`${base}/levels/11`)).text();
    for (const web of webs()) {
      expect(await page(web.url)).toContain('Knee-deep water');
      // Served from the cache now.
      expect(await page(web.url)).toContain('Knee-deep water');
    }
    const file = join(contentDir, 'levels/011.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('Knee-deep water and a rusty door.', 'Waist-deep water and a rusty door.'));
    const imported = await runUntilExit({ DATABASE_URL: site.database!.url, CONTENT_DIR: contentDir }, { script: CONTENT_CLI, args: ['import'] });
    expect(imported.code).toBe(0);
    for (const web of webs()) await until(`the new guide on ${web.url}`, async () => (await page(web.url)).includes('Waist-deep water'), 2_000, 100);
  });

  it('runs each housekeeping task once per period across both workers, not once per worker', async () => {
    const runs = () =>
      workers.flatMap((worker) => [...worker.output().matchAll(/Recurring task images\.housekeeping: the fleet's run (\S+?)["\s]/g)].map((match) => match[1]!));
    // A failure shows what the workers said about their recurring work.
    const said = () => workers.map((w) => w.output().split('\n').filter((line) => line.includes('RecurringWork')).join('\n')).join('\n---\n');
    await until('four periods of the image housekeeping', () => runs().length >= 4, 20_000, 200).catch((error: Error) => Promise.reject(new Error(`${error.message}\n${said()}`)));
    // Each run is one period's job (its id names the period): no period ran twice, in either worker.
    const all = runs();
    expect(new Set(all).size).toBe(all.length);
  });

  it("interleaves a light user's job with a heavy user's queue across both workers, and charges each job once", async () => {
    const admin = await site.signedInUser(ADMIN);
    const db = await site.db();
    const person = async (email: string, credits: number, ip: string) => {
      const token = await site.signedInUser(email);
      const granted = await fetch(`${site.url}/api/v1/admin/credits`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email, credits, validity_days: 30, reason: 'Fleet test' }),
      });
      expect(granted.status).toBe(201);
      return { token, ip };
    };
    const heavy = await person('fleet-heavy@example.com', 8, '10.33.0.1');
    const light = await person('fleet-light@example.com', 1, '10.33.0.2');
    // Each job its own bytes: the same image again within a day is answered by the earlier job.
    const submit = async (who: { token: string; ip: string }, seed: number, web: RunningApp) => {
      const png = await sharp({ create: { width: 48, height: 48, channels: 3, background: { r: seed * 20, g: 90, b: 160 } } }).png().toBuffer();
      const form = new FormData();
      form.append('conversion', 'sketch');
      form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'photo.png');
      const answer = await fetch(`${web.url}/api/v1/images`, { method: 'POST', headers: { authorization: `Bearer ${who.token}`, 'x-forwarded-for': who.ip }, body: form });
      expect(answer.status).toBe(202);
      return ((await answer.json()) as { id: string }).id;
    };
    // With the workers stopped the queue fills, as behind long conversions; then both take it.
    for (const worker of workers.splice(0)) await worker.stop();
    // The heavy user's eight through both web processes, then the light user's one.
    const heavyJobs: string[] = [];
    for (let i = 0; i < 8; i++) heavyJobs.push(await submit(heavy, i + 1, webs()[i % 2]!));
    const lightJob = await submit(light, 9, second);
    for (let i = 0; i < 2; i++) workers.push(await site.startWorker({ LOG_LEVEL: 'debug' }));
    const ids = [...heavyJobs, lightJob];
    await until('every job to finish', async () => (await db.query(`select 1 from image_jobs where id = any($1) and status = 'succeeded'`, [ids])).rows.length === ids.length, 60_000, 200);
    // Two workers take the queue by priority: the light user's job (priority 1) starts with the heavy
    // user's first, before the other seven (whichever worker was quicker to start).
    const { rows } = await db.query<{ id: string }>(`select id from image_jobs where id = any($1) order by started_at`, [ids]);
    expect(rows.slice(0, 2).map((row) => row.id).sort()).toEqual([heavyJobs[0], lightJob].sort());
    const charges = await db.query<{ state: string; n: string }>(`select state, count(*) as n from credit_charges where idempotency_key = any($1) group by state`, [ids.map((id) => `image-job:${id}`)]);
    expect(charges.rows).toEqual([{ state: 'captured', n: String(ids.length) }]);
  });
});
