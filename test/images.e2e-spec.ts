import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createServer, type Server } from 'node:http';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Client } from 'pg';
import sharp from 'sharp';
import type { CreditsView, Paged } from 'src/contracts/billing';
import type { ImageJobView } from 'src/contracts/images';
import { queueJobId } from 'src/modules/image-tool/domain/image-job';
import type { RunningApp, RunningWorker } from './support/app-process';
import { REDIS_URL } from './support/services';
import { startTcpProxy } from './support/tcp-proxy';
import { startSite, useSite, type Site } from './support/site';
import { poll } from './support/poll';
import { until } from './support/until';

const ADMIN = 'images-ops@example.com';

/**
 * The image tool end to end: the built web process and worker on PostgreSQL and Redis, sharing a
 * files directory; credits held at submission, captured on success, released on failure.
 */
describe('the image tool on PostgreSQL, Redis and the worker', () => {
  let site: Site;
  let app: RunningApp;
  let worker: RunningWorker;
  let db: Client;
  let admin: string;
  let privateImages: Server;

  beforeAll(async () => {
    site = await startSite({
      redis: true,
      worker: true,
      env: {
        HAS_LOGIN: 'true',
        HAS_PAYMENT: 'true',
        TEST_PAYMENTS: 'true',
        TRIAL_CREDITS: '0',
        ADMIN_EMAILS: ADMIN,
        NODE_ENV: 'production',
        MIGRATE_ON_START: 'true',
        TRUST_PROXY: 'true',
        // The credit check under concurrency is the point below, not the per-user job limit.
        IMAGE_MAX_UNFINISHED: '25',
        // The waits below are these settings: a killed worker's job and a job queued while Redis
        // was down are picked up within seconds instead of 15 and 30.
        IMAGE_JOB_LOCK_MS: '5000',
        IMAGE_HOUSEKEEPING_INTERVAL_MS: '1000',
        // The estimate reads the durations of the jobs just run, not those cached a moment before.
        IMAGE_ESTIMATE_CACHE_MS: '0',
        // Retries 0.3 s, then 0.6 s apart instead of 5 and 10 s.
        JOB_RETRY_DELAY_MS: '300',
      },
    });
    ({ app } = site);
    worker = site.worker!;
    db = await site.db();
    admin = await site.signedInUser(ADMIN);
    // An image server on loopback: a URL job pointing inside the network must never reach it.
    privateImages = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(10)));
    await new Promise<void>((resolve) => privateImages.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await site?.close();
    privateImages?.close();
  });

  let ip = '';
  beforeEach(() => {
    ip = `10.${[1, 2, 3].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;
  });

  const call = (method: string, path: string, { token, body, form }: { token: string; body?: unknown; form?: FormData }) =>
    fetch(`${app.url}${path}`, {
      method,
      headers: { 'x-forwarded-for': ip, authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: form ?? (body === undefined ? undefined : JSON.stringify(body)),
    });

  /** A signed-in user with `credits` credits, granted by an admin. */
  async function user(credits: number): Promise<string> {
    const email = `artist-${randomBytes(4).toString('hex')}@example.com`;
    const token = await site.signedInUser(email);
    if (credits > 0) {
      const grant = await call('POST', '/api/v1/admin/credits', { token: admin, body: { email, credits, validity_days: 30, reason: 'Image tool test' } });
      expect(grant.status).toBe(201);
    }
    return token;
  }

  const balance = async (token: string) => {
    const response = await call('GET', '/api/v1/credits', { token });
    expect(response.status).toBe(200);
    return ((await response.json()) as CreditsView).balance;
  };

  /**
   * A PNG of a circle; `seed` changes its background, so its bytes differ: the same image twice
   * within 24 hours is answered by the earlier job for nothing, and tests that mean new jobs need new images.
   */
  const png = (width: number, height: number, seed = 0) =>
    sharp({ create: { width, height, channels: 3, background: { r: 40 + (seed % 200), g: 120, b: 200 - Math.floor(seed / 200) } } })
      .composite([{ input: Buffer.from(`<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${width / 4}" fill="#fc0"/></svg>`) }])
      .png()
      .toBuffer();

  function upload(bytes: Buffer, conversion = 'ai-2x', name = 'photo.png', type = 'image/png', fields: Record<string, string> = {}): FormData {
    const form = new FormData();
    form.append('conversion', conversion);
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
    return form;
  }

  async function submit(token: string, form: FormData): Promise<ImageJobView> {
    const response = await call('POST', '/api/v1/images', { token, form });
    expect(response.status).toBe(202);
    return (await response.json()) as ImageJobView;
  }

  /** Polls the job as the page does (twice a second, within the route's rate limit; a 429 fails). */
  const finished = (token: string, id: string, timeoutMs = 60_000) =>
    until(
      `image job ${id} to finish`,
      async () => {
        const response = await call('GET', `/api/v1/images/${id}`, { token });
        expect(response.status).toBe(200);
        const job = (await response.json()) as ImageJobView;
        return job.status === 'succeeded' || job.status === 'failed' ? job : undefined;
      },
      timeoutMs,
      500,
    );

  it('upscales an uploaded image 2x with AI for exactly one credit, and serves the result to its owner only', async () => {
    const token = await user(10);
    const queued = await submit(token, upload(await png(64, 48)));
    expect(queued).toMatchObject({ status: 'queued', conversion: 'ai-2x', credits: 1, files: false, result_format: null, options: { scale: null, width: null, noise: 'auto', format: 'auto', quality: 90 } });
    expect(queued.queue).not.toBeNull();
    expect(await balance(token)).toBe(9);

    const job = await finished(token, queued.id);
    expect(job).toMatchObject({ status: 'succeeded', input: { width: 64, height: 48, shrunk: false }, result: { width: 128, height: 96 }, result_format: 'png', notes: [], files: true, queue: null });
    expect(await balance(token)).toBe(9);

    const result = await call('GET', `/api/v1/images/${job.id}/result?download=1`, { token });
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('image/png');
    expect(result.headers.get('x-content-type-options')).toBe('nosniff');
    expect(result.headers.get('content-disposition')).toMatch(/^attachment; filename="ai-2x-[0-9a-f]{8}\.png"$/);
    expect(await sharp(Buffer.from(await result.arrayBuffer())).metadata()).toMatchObject({ width: 128, height: 96, format: 'png' });
    expect((await call('GET', `/api/v1/images/${job.id}/thumbnail`, { token })).headers.get('content-type')).toBe('image/jpeg');
    expect((await call('GET', `/api/v1/images/${job.id}/preview`, { token })).status).toBe(200);

    const stranger = await user(0);
    for (const path of ['', '/result', '/preview']) expect((await call('GET', `/api/v1/images/${job.id}${path}`, { token: stranger })).status).toBe(404);
    const history = (await (await call('GET', '/api/v1/images', { token })).json()) as Paged<ImageJobView>;
    expect(history.items.map((j) => j.id)).toEqual([job.id]);
    const { rows } = await db.query(`select state from credit_charges where idempotency_key = $1`, [`image-job:${job.id}`]);
    expect(rows).toEqual([{ state: 'captured' }]);
  });

  it('runs AI at full size: an 800x600 PNG with transparency comes back 1600x1200 with its alpha, not from a 512 px copy', async () => {
    const token = await user(2);
    const rgba = Buffer.alloc(800 * 600 * 4);
    for (let i = 0; i < 800 * 600; i++) rgba.set([(i % 800) % 256, (i / 800) % 256, 90, i % 800 < 400 ? 0 : 255], i * 4);
    const image = await sharp(rgba, { raw: { width: 800, height: 600, channels: 4 } }).png().toBuffer();
    const queued = await submit(token, upload(image, 'ai-2x-fast', 'logo.png', 'image/png', { noise: 'none' }));
    expect(queued.options).toMatchObject({ noise: 'none', format: 'auto' });
    const job = await finished(token, queued.id, 120_000);
    expect(job).toMatchObject({ status: 'succeeded', input: { width: 800, height: 600, shrunk: false }, result: { width: 1600, height: 1200 }, result_format: 'png' });
    const result = Buffer.from(await (await call('GET', `/api/v1/images/${job.id}/result`, { token })).arrayBuffer());
    const { data, info } = await sharp(result).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([1600, 1200, 4]);
    expect([data[(600 * 1600 + 100) * 4 + 3], data[(600 * 1600 + 1500) * 4 + 3]]).toEqual([0, 255]);
  }, 150_000);

  it('honours the format: a phone JPEG (turned, with GPS) stays JPEG, upright, without EXIF; WebP on request, .jpg and .webp downloads', async () => {
    const token = await user(3);
    const photo = await sharp({ create: { width: 60, height: 40, channels: 3, background: { r: 200, g: 60, b: 30 } } })
      .jpeg({ quality: 90 })
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Make: 'PhoneMaker' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1' } })
      .toBuffer();
    expect(await sharp(photo).metadata()).toMatchObject({ orientation: 6, autoOrient: { width: 40, height: 60 } });
    const jpeg = await finished(token, (await submit(token, upload(photo, 'sketch', 'photo.jpg', 'image/jpeg'))).id);
    expect(jpeg).toMatchObject({ status: 'succeeded', result: { width: 40, height: 60 }, result_format: 'jpeg' });
    const download = await call('GET', `/api/v1/images/${jpeg.id}/result?download=1`, { token });
    expect(download.headers.get('content-type')).toBe('image/jpeg');
    expect(download.headers.get('content-disposition')).toMatch(/filename="sketch-[0-9a-f]{8}\.jpg"$/);
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg', width: 40, height: 60, hasProfile: true });
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    expect(bytes.toString('latin1')).not.toContain('PhoneMaker');

    const webp = await finished(token, (await submit(token, upload(photo, 'sketch', 'photo.jpg', 'image/jpeg', { format: 'webp', quality: '60' }))).id);
    expect(webp).toMatchObject({ status: 'succeeded', result_format: 'webp', options: { format: 'webp', quality: 60 } });
    const saved = await call('GET', `/api/v1/images/${webp.id}/result?download=1`, { token });
    expect(saved.headers.get('content-type')).toBe('image/webp');
    expect(saved.headers.get('content-disposition')).toMatch(/filename="sketch-[0-9a-f]{8}\.webp"$/);
    expect(await balance(token)).toBe(1);
  });

  it('refuses an enlargement of an upload past 4096 px before any credit; a 1x conversion of it is taken', async () => {
    const token = await user(2);
    const wide = await sharp({ create: { width: 4200, height: 300, channels: 3, background: '#357' } }).png().toBuffer();
    for (const form of [upload(wide, 'ai-2x'), upload(wide, 'ai-4x', 'wide.png', 'image/png', { scale: '1.5' }), upload(wide, 'enhance')]) {
      const response = await call('POST', '/api/v1/images', { token, form });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        code: 'IMAGES.WOULD_NOT_ENLARGE',
        errors: ['This image is larger than 4096 px: an enlargement would come back smaller. Choose Clean-up (1x) instead.'],
      });
    }
    expect(await balance(token)).toBe(2);
    const sketch = await finished(token, (await submit(token, upload(wide, 'sketch'))).id);
    expect(sketch).toMatchObject({ status: 'succeeded', input: { width: 4096, height: 293, shrunk: true }, result: { width: 4096, height: 293 } });
  });

  // Needs the 1x denoising models (the engine's build adds them): runs by itself once dist/models has them.
  it('runs the clean-up (1x) of an image past 4096 px at its own size, denoised', async () => {
    const token = await user(1);
    // A strip: past 4096 px is the point, not the pixel count (the network's work grows with it).
    const wide = await sharp({ create: { width: 4200, height: 40, channels: 3, background: '#357' } }).jpeg().toBuffer();
    const job = await finished(token, (await submit(token, upload(wide, 'ai-2x', 'wide.jpg', 'image/jpeg', { scale: '1' }))).id, 240_000);
    expect(job).toMatchObject({ status: 'succeeded', input: { width: 4200, height: 40, shrunk: false }, result: { width: 4200, height: 40 }, result_format: 'jpeg' });
  }, 300_000);

  it('answers the same image with the same settings within 24 hours by the earlier job, for nothing; another owner pays', async () => {
    const token = await user(3);
    const image = await png(48, 32, 777);
    const first = await finished(token, (await submit(token, upload(image, 'sketch', 'a.png', 'image/png', { format: 'webp' }))).id);
    expect(await balance(token)).toBe(2);
    const again = await call('POST', '/api/v1/images', { token, form: upload(image, 'sketch', 'same.png', 'image/png', { format: 'webp' }) });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ id: first.id, status: 'succeeded', credits: 0, repeat: { converted_at: first.finished_at }, files: true });
    expect(await balance(token)).toBe(2);
    // Other settings: a new job, and a credit.
    expect((await call('POST', '/api/v1/images', { token, form: upload(image, 'sketch', 'a.png', 'image/png', { format: 'png' }) })).status).toBe(202);
    expect(await balance(token)).toBe(1);
    // Another owner, the same bytes and settings: a job of their own, for a credit.
    const other = await user(1);
    const theirs = await call('POST', '/api/v1/images', { token: other, form: upload(image, 'sketch', 'a.png', 'image/png', { format: 'webp' }) });
    expect(theirs.status).toBe(202);
    expect(((await theirs.json()) as ImageJobView).id).not.toBe(first.id);
    expect(await balance(other)).toBe(0);
  });

  it('refuses what is not an image we take before holding any credit: a pixel bomb in milliseconds, SVG, text, over 10 MB', async () => {
    const token = await user(3);
    // 12000 x 12000 pixels in a few kilobytes: refused from its header, never decoded.
    const bomb = await sharp({ create: { width: 12_000, height: 12_000, channels: 3, background: '#000' } }).png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(1_000_000);
    const cases: [FormData, number, string][] = [
      [upload(bomb), 400, 'IMAGES.INVALID_IMAGE'],
      [upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), 'ai-2x', 'x.svg', 'image/svg+xml'), 400, 'IMAGES.INVALID_IMAGE'],
      [upload(Buffer.from('just some text, not an image'), 'sketch', 'notes.txt', 'text/plain'), 400, 'IMAGES.INVALID_IMAGE'],
      [upload(Buffer.alloc(11 * 1024 * 1024, 1)), 413, ''],
    ];
    for (const [form, status, code] of cases) {
      const response = await call('POST', '/api/v1/images', { token, form });
      expect(response.status).toBe(status);
      if (code) expect(await response.json()).toMatchObject({ code });
    }
    const bad = await call('POST', '/api/v1/images', { token, body: { conversion: 'ai-2x', url: 'not a url' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ errors: ['url: Please enter a valid image URL'] });
    expect(await balance(token)).toBe(3);
  });

  it('gives the credit back when a job fails: a URL inside the network is never fetched', async () => {
    const token = await user(2);
    const { port } = privateImages.address() as { port: number };
    const response = await call('POST', '/api/v1/images', { token, body: { conversion: 'sketch', url: `http://127.0.0.1:${port}/photo.png` } });
    expect(response.status).toBe(202);
    const queued = (await response.json()) as ImageJobView;
    // (The refusal can be quick enough that the credit is back before a balance could be read.)
    const job = await finished(token, queued.id);
    expect(job.status).toBe('failed');
    expect(job.error?.code).toBe('IMAGES.FETCH_FAILED');
    await until('the credit to come back', async () => (await balance(token)) === 2, 20_000, 250);
    const { rows } = await db.query(`select state from credit_charges where idempotency_key = $1`, [`image-job:${queued.id}`]);
    expect(rows).toEqual([{ state: 'released' }]);
    expect(await queueState(queued.id)).toBe('gone');
  });

  /** The job's entry in BullMQ (done jobs are removed at once; failed ones are kept to inspect): its state, or 'gone'. */
  async function queueState(id: string): Promise<string> {
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue('images', { connection: redis, prefix: `${site.redisPrefix}bull` });
    try {
      return (await (await queue.getJob(queueJobId(id)))?.getState()) ?? 'gone';
    } finally {
      await queue.close();
      redis.disconnect();
    }
  }

  it("ends the user's own failures (a truncated file) as the user's outcome: credit back, logged as info, not in the queue's failed list", async () => {
    const token = await user(1);
    const whole = await png(64, 64);
    // Its header is fine (accepted), the rest is missing (found when the worker decodes it).
    const queued = await submit(token, upload(whole.subarray(0, Math.floor(whole.length * 0.6))));
    const job = await finished(token, queued.id);
    expect(job).toMatchObject({ status: 'failed', error: { code: 'IMAGES.INVALID_IMAGE' } });
    await until('the credit to come back', async () => (await balance(token)) === 1, 20_000, 250);
    expect(await queueState(queued.id)).toBe('gone'); // completed, not failed: no alert for a user's bad file
    const lines = worker.stdout().split('\n').filter((line) => line.includes(queued.id));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect((JSON.parse(line) as { level: number }).level).toBeLessThanOrEqual(30);
  });

  it('accepts exactly 5 of 20 concurrent submissions against 5 credits', async () => {
    const token = await user(5);
    const images = await Promise.all(Array.from({ length: 20 }, (_, i) => png(32, 32, i + 1)));
    const answers = await Promise.all(images.map((image) => call('POST', '/api/v1/images', { token, form: upload(image, 'sketch') })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(5);
    expect(statuses.every((s) => s === 202 || s === 402 || s === 429)).toBe(true);
    expect(await balance(token)).toBe(0);
    const refusal = answers.find((a) => a.status === 402);
    // Credits from an admin are not a payment: the donation offer.
    if (refusal) expect(await refusal.json()).toMatchObject({ code: 'CREDITS.INSUFFICIENT', balance: 0, has_paid: false });
  });

  /**
   * The estimate a job is shown when it joins a queue of N jobs, against when it was done. The
   * range comes from recent durations (quartile to 90th percentile) with the work ahead shared by
   * the live workers (one here, from its heartbeat). Tolerance: what happened lies within the range
   * widened by half on each side (CPU time on a shared machine varies by that much from job to job).
   */
  it('estimates a queue of N jobs honestly: every job ahead counted, running ones included, and the result lands in the range', async () => {
    const TOLERANCE = 0.5;
    const N = 5;
    const WARM_UP = 5;
    const token = await user(WARM_UP + N);
    // A new image each time: the same one again would be answered by the earlier job.
    let seed = 0;
    const image = () => png(192, 192, ++seed);
    // The queue this test measures is its own: the jobs other tests left running finish first.
    await until('the queue to be empty', async () => (await db.query(`select 1 from image_jobs where status in ('queued', 'running')`)).rows.length === 0, 120_000);
    // The worker's first job of a conversion also loads its model: run by another user, so it is
    // history but not one of this user's 10 a minute.
    const other = await user(1);
    expect((await finished(other, (await submit(other, upload(await image(), 'ai-2x-fast'))).id)).status).toBe('succeeded');
    // History first: jobs of the conversion, one at a time (with N more, within the 10-a-minute limit).
    for (let i = 0; i < WARM_UP; i++) expect((await finished(token, (await submit(token, upload(await image(), 'ai-2x-fast'))).id)).status).toBe('succeeded');
    const queued: ImageJobView[] = [];
    for (let i = 0; i < N; i++) queued.push(await submit(token, upload(await image(), 'ai-2x-fast')));
    const last = queued.at(-1)!;
    // Every unfinished job before it is ahead, running or waiting: counted in the database just before
    // and just after it was asked (the worker may finish one meanwhile), the answer lies between.
    const ahead = async () =>
      Number(
        (
          await db.query(`select count(*) as n from image_jobs where status in ('queued', 'running') and created_at < (select created_at from image_jobs where id = $1)`, [
            last.id,
          ])
        ).rows[0].n,
      );
    const before = await ahead();
    const shown = ((await (await call('GET', `/api/v1/images/${last.id}`, { token })).json()) as ImageJobView).queue!;
    const askedAt = Date.now();
    const after = await ahead();
    expect(before).toBeLessThanOrEqual(N - 1);
    expect(shown.position).toBeLessThanOrEqual(before);
    expect(shown.position).toBeGreaterThanOrEqual(after);
    expect(shown.estimate_range).not.toBeNull();
    const done = await finished(token, last.id, 120_000);
    expect(done.status).toBe('succeeded');
    // What happened, by the server's clock from the job's creation; the estimate was made a moment after it.
    const took = (Date.parse(done.finished_at!) - Date.parse(done.created_at)) / 1000;
    const lag = (askedAt - Date.parse(done.created_at)) / 1000;
    const { low, high } = shown.estimate_range!;
    console.log(`queue of ${N}: estimate ${low}-${high} s (typical ${shown.estimate_seconds} s) at ${lag.toFixed(1)} s, done after ${took.toFixed(1)} s`);
    expect(took).toBeGreaterThanOrEqual(low * (1 - TOLERANCE));
    expect(took).toBeLessThanOrEqual(lag + high * (1 + TOLERANCE));
  }, 240_000);

  it("queues fairly: a light user's first job starts behind at most one of a heavy user's, and the page says so", async () => {
    const heavy = await user(6);
    const light = await user(1);
    await until('the queue to be empty', async () => (await db.query(`select 1 from image_jobs where status in ('queued', 'running')`)).rows.length === 0, 120_000);
    // With the worker stopped, the queue fills as it would behind a long conversion.
    await worker.stop();
    const heavyJobs: ImageJobView[] = [];
    for (let i = 0; i < 6; i++) heavyJobs.push(await submit(heavy, upload(await png(32, 32, 700 + i), 'sketch')));
    const lightJob = await submit(light, upload(await png(32, 32, 710), 'sketch'));
    // The page's place in the queue follows the same order: behind the heavy user's first job only.
    expect(((await (await call('GET', `/api/v1/images/${lightJob.id}`, { token: light })).json()) as ImageJobView).queue?.position).toBe(1);
    expect(((await (await call('GET', `/api/v1/images/${heavyJobs[5]!.id}`, { token: heavy })).json()) as ImageJobView).queue?.position).toBe(6);
    worker = await site.startWorker();
    expect((await finished(heavy, heavyJobs[5]!.id)).status).toBe('succeeded');
    const ids = [...heavyJobs.map((job) => job.id), lightJob.id];
    const { rows } = await db.query<{ id: string }>(`select id from image_jobs where id = any($1) order by started_at`, [ids]);
    expect(rows.map((row) => row.id)).toEqual([heavyJobs[0]!.id, lightJob.id, ...heavyJobs.slice(1).map((job) => job.id)]);
  }, 240_000);

  it('runs a conversion once while every core is kept busy: its queue lock holds, nothing is flagged stalled', async () => {
    const token = await user(1);
    await until('the queue to be empty', async () => (await db.query(`select 1 from image_jobs where status in ('queued', 'running')`)).rows.length === 0, 120_000);
    // A worker whose queue lock is 1 s (renewed every 0.5 s by its event loop), so a conversion of a
    // few seconds outlasts it several times; the file's own worker waits meanwhile.
    await worker.stop();
    const strict = await site.startWorker({ IMAGE_JOB_LOCK_MS: '1000' });
    // One spinning process per core for the whole conversion, beside the worker's inference threads.
    const spinners = Array.from({ length: availableParallelism() }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    try {
      // About 2 CPU-seconds of CUnet, so some 4 s with the cores shared.
      const queued = await submit(token, upload(await png(512, 384, 720)));
      expect((await finished(token, queued.id, 180_000)).status).toBe('succeeded');
      const { rows } = await db.query<{ attempts: number }>(`select attempts from image_jobs where id = $1`, [queued.id]);
      expect(rows[0]!.attempts).toBe(1);
      expect(strict.output()).not.toMatch(/stalled/i);
      expect(await balance(token)).toBe(0);
    } finally {
      for (const spinner of spinners) spinner.kill('SIGKILL');
      await strict.stop();
      worker = await site.startWorker();
    }
  }, 240_000);

  it('converts 20 concurrent jobs from 4 users, one of them AI at 2048 px out: each charged once, the worker under its 1.2 GB bound', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => user(5)));
    // The worker's peak resident memory from here on (Linux: 5 resets VmHWM to the current RSS).
    writeFileSync(`/proc/${worker.process.pid}/clear_refs`, '5');
    // The first user's first job an AI upscale of a 1024x768 image (2048x1536 result), the rest
    // 640x480 sketches: the queue, the charges and the memory under load. The worker converts one
    // image at a time (the images queue's concurrency is 1), so more AI jobs of the same size would
    // reach the same peak, one after another, for CPU the suite would pay each run.
    const jobs = await Promise.all(
      users.flatMap((token, u) =>
        Array.from({ length: 5 }, async (_, i) => {
          const ai = u === 0 && i === 0;
          return { token, job: await submit(token, upload(await png(ai ? 1024 : 640, ai ? 768 : 480, 800 + u * 5 + i), ai ? 'ai-2x-fast' : 'sketch')) };
        }),
      ),
    );
    expect(jobs).toHaveLength(20);
    for (const { token, job } of jobs) expect((await finished(token, job.id, 180_000)).status).toBe('succeeded');
    for (const token of users) expect(await balance(token)).toBe(0);
    const charges = await db.query<{ state: string; n: string }>(`select state, count(*) as n from credit_charges where idempotency_key = any($1) group by state`, [
      jobs.map(({ job }) => `image-job:${job.id}`),
    ]);
    expect(charges.rows).toEqual([{ state: 'captured', n: '20' }]);
    // The models the file's earlier jobs loaded are still held (at most two per inference thread).
    const peakKb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${worker.process.pid}/status`, 'utf8'))![1]);
    console.log(`worker peak RSS: ${Math.round(peakKb / 1024)} MB`);
    expect(peakKb * 1024).toBeLessThanOrEqual(1.2e9);
  }, 240_000);

  it('tells a user who spent the last credit how to get more (402) before any per-minute limit (429)', async () => {
    const token = await user(10);
    for (let i = 0; i < 10; i++) expect((await call('POST', '/api/v1/images', { token, form: upload(await png(16, 16, i + 1), 'sketch') })).status).toBe(202);
    // The eleventh within the minute: out of credits, and the answer says so, not "too many at once".
    const next = await call('POST', '/api/v1/images', { token, form: upload(await png(16, 16, 11), 'sketch') });
    expect(next.status).toBe(402);
    expect(await next.json()).toMatchObject({ code: 'CREDITS.INSUFFICIENT', balance: 0, errors: ["You don't have enough credits"] });
  });

  it('charges once a job whose worker was killed in the middle of it: another worker finishes it', async () => {
    const token = await user(4);
    // Big enough to be running when the worker is killed, small enough to convert in a moment.
    const queued = await submit(token, upload(await png(128, 128)));
    await until('the job to be running', async () => {
      const { rows } = await db.query<{ status: string }>(`select status from image_jobs where id = $1`, [queued.id]);
      return rows[0]?.status === 'running';
    });
    worker.process.kill('SIGKILL');
    await worker.stop();
    worker = await site.startWorker();
    // BullMQ finds the job stalled once its lock expires (IMAGE_JOB_LOCK_MS) and runs it again.
    const job = await finished(token, queued.id, 150_000);
    expect(job.status).toBe('succeeded');
    expect(await balance(token)).toBe(3);
    const { rows } = await db.query<{ attempts: number }>(`select attempts from image_jobs where id = $1`, [queued.id]);
    expect(rows[0]!.attempts).toBeGreaterThanOrEqual(2);
    const charges = await db.query(`select state from credit_charges where idempotency_key = $1`, [`image-job:${queued.id}`]);
    expect(charges.rows).toEqual([{ state: 'captured' }]);
  }, 240_000);

  it('accepts a job while Redis is down; the relay where the jobs run queues it later, and it converts', async () => {
    const token = await user(2);
    // A second web process on the same database whose Redis does not answer.
    const noRedis = await site.startApp({ REDIS_URL: 'redis://127.0.0.1:1' });
    let accepted: ImageJobView;
    try {
      const form = upload(await png(40, 40), 'sketch');
      const response = await fetch(`${noRedis.url}/api/v1/images`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': ip }, body: form });
      expect(response.status).toBe(202);
      accepted = (await response.json()) as ImageJobView;
      expect(accepted.status).toBe('queued');
    } finally {
      await noRedis.stop();
    }
    expect(await balance(token)).toBe(1);
    // Old enough for the relay (it queues jobs still queued after 30 s); the worker's next run
    // (IMAGE_HOUSEKEEPING_INTERVAL_MS) picks it up.
    await db.query(`update image_jobs set created_at = now() - interval '1 minute' where id = $1`, [accepted.id]);
    const job = await finished(token, accepted.id, 60_000);
    expect(job.status).toBe('succeeded');
    expect(await balance(token)).toBe(1);
  }, 120_000);

  it('runs a job whose worker lost PostgreSQL for longer than its attempts\' backoff once the database is back, charging one credit', async () => {
    const token = await user(2);
    const direct = new URL(site.database!.url);
    const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(direct);
    proxied.host = `127.0.0.1:${proxy.port}`;
    // The only worker reaches PostgreSQL through the proxy; the web process directly.
    await worker.stop();
    worker = await site.startWorker({ DATABASE_URL: proxied.toString(), JOB_DATABASE_RETRY_MS: '1000' });
    try {
      proxy.cut();
      const queued = await submit(token, upload(await png(40, 40), 'sketch'));
      expect(await balance(token)).toBe(1);
      // The outage: several times longer than the job's attempts with their backoff (0.3 s, then
      // 0.6 s, JOB_RETRY_DELAY_MS), which it used up before the fix.
      await until('the worker to find the database unreachable', () => worker.stdout().includes('the database is unreachable') || worker.stdout().includes(`${queueJobId(queued.id)} failed`));
      const outageEnds = Date.now() + 4_000;
      await until('the outage to last 4 s', () => Date.now() > outageEnds, 30_000, 250);
      proxy.restore();
      const job = await finished(token, queued.id, 90_000);
      expect(job.status).toBe('succeeded');
      expect(await balance(token)).toBe(1);
      const charges = await db.query(`select state from credit_charges where idempotency_key = $1`, [`image-job:${queued.id}`]);
      expect(charges.rows).toEqual([{ state: 'captured' }]);
    } finally {
      proxy.restore();
      await worker.stop();
      worker = await site.startWorker();
      await proxy.close();
    }
  }, 180_000);

  it('runs a job left running whose BullMQ job had given up (the relay queues it again with all its attempts)', async () => {
    const token = await user(2);
    await worker.stop();
    // As after an outage that outlasted the attempts: the job failed for good in BullMQ, and its
    // failure handler could not mark the row, left running.
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
    const givingUp = new Worker('images', () => Promise.reject(new UnrecoverableError('the database is down')), { connection: redis, prefix: `${site.redisPrefix}bull` });
    try {
      const queued = await submit(token, upload(await png(40, 40), 'sketch'));
      await poll(() => queueState(queued.id)).toBe('failed');
      await givingUp.close();
      await db.query(`update image_jobs set status = 'running', started_at = now() - interval '1 minute' where id = $1`, [queued.id]);
      worker = await site.startWorker();
      const job = await finished(token, queued.id, 60_000);
      expect(job.status).toBe('succeeded');
      expect(await balance(token)).toBe(1);
    } finally {
      await givingUp.close();
      redis.disconnect();
      if (worker.process.exitCode !== null) worker = await site.startWorker();
    }
  }, 120_000);
});

/** The upload route's body types and its per-user cap, on a site with no worker: submitted jobs stay queued. */
describe('what POST /api/v1/images takes, and its cap on unfinished jobs', () => {
  const site = useSite({
    redis: true,
    env: { HAS_LOGIN: 'true', HAS_PAYMENT: 'true', TEST_PAYMENTS: 'true', TRIAL_CREDITS: '0', ADMIN_EMAILS: ADMIN, MIGRATE_ON_START: 'true', IMAGE_MAX_UNFINISHED: '1' },
  });

  let admin = '';
  beforeAll(async () => {
    admin = await site.signedInUser(ADMIN);
  });

  async function userWithCredits(): Promise<string> {
    const email = `types-${randomBytes(4).toString('hex')}@example.com`;
    const token = await site.signedInUser(email);
    const grant = await fetch(`${site.url}/api/v1/admin/credits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email, credits: 5, validity_days: 30, reason: 'Body types test' }),
    });
    expect(grant.status).toBe(201);
    return token;
  }

  const post = (token: string, body: string | Blob, type?: string) =>
    fetch(`${site.url}/api/v1/images`, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...(type ? { 'content-type': type } : {}) }, body });

  it('takes exactly multipart and JSON: urlencoded, text, none and multipart/mixed get 415 with nothing held', async () => {
    const token = await userWithCredits();
    const boundary = 'XyZ123';
    for (const [type, body] of [
      ['application/x-www-form-urlencoded', 'conversion=sketch&url=https%3A%2F%2Fexample.com%2Fa.png'],
      ['text/plain', '{"conversion":"sketch","url":"https://example.com/a.png"}'],
      // A Blob without a type, so fetch sends no content type (a string gets text/plain).
      [undefined, new Blob(['{"conversion":"sketch","url":"https://example.com/a.png"}'])],
      [`multipart/mixed; boundary=${boundary}`, `--${boundary}\r\ncontent-disposition: form-data; name="conversion"\r\n\r\nsketch\r\n--${boundary}--\r\n`],
      ['application/jsonp', '{"conversion":"sketch","url":"https://example.com/a.png"}'],
    ] as const) {
      const response = await post(token, body, type);
      expect([type, response.status]).toEqual([type, 415]);
      expect(await response.json()).toEqual({
        errors: ['Send the image as a multipart form (multipart/form-data) or its URL as JSON (application/json).'],
        code: 'REQUEST.UNSUPPORTED_BODY',
      });
    }
    const credits = await fetch(`${site.url}/api/v1/credits`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await credits.json()) as CreditsView).balance).toBe(5);

    // JSON with a charset, in upper case, is JSON: the job is queued (no worker runs here).
    const json = await post(token, JSON.stringify({ conversion: 'sketch', url: 'https://example.com/a.png' }), 'APPLICATION/JSON; charset=UTF-8');
    expect(json.status).toBe(202);

    // The cap (1 here) is reached: 429 with a Retry-After the client can wait.
    const over = await post(token, JSON.stringify({ conversion: 'sketch', url: 'https://example.com/b.png' }), 'application/json');
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ code: 'IMAGES.TOO_MANY_UNFINISHED' });
    expect(over.headers.get('retry-after')).toBe('10');

    // A multipart form with an upper-case type still reaches the route (refused there as no image, not as a type).
    const form = `--${boundary}\r\ncontent-disposition: form-data; name="conversion"\r\n\r\nsketch\r\n--${boundary}--\r\n`;
    const multipart = await post(token, form, `MULTIPART/FORM-DATA; boundary=${boundary}`);
    expect(multipart.status).not.toBe(415);
  });

  it('takes the option fields in multipart and JSON alike, and refuses them where they do not apply', async () => {
    const token = await userWithCredits();
    const boundary = 'OpT456';
    const field = (name: string, value: string) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const file = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.png"\r\ncontent-type: image/png\r\n\r\n`;
    const tiny = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } }).png().toBuffer();
    const form = (fields: [string, string][]) => new Blob([fields.map(([n, v]) => field(n, v)).join('') + file, new Uint8Array(tiny), `\r\n--${boundary}--\r\n`]);
    const type = `multipart/form-data; boundary=${boundary}`;
    for (const [fields, message] of [
      [[['conversion', 'ai-2x'], ['scale', '2'], ['width', '100']], 'width: Give a scale or a width, not both.'],
      [[['conversion', 'sketch'], ['noise', 'low']], 'noise: noise is for the AI conversions only.'],
      [[['conversion', 'ai-2x'], ['quality', '101']], 'quality'],
      [[['conversion', 'ai-2x'], ['colour', 'red']], 'Unknown field "colour"'],
    ] as [[string, string][], string][]) {
      const response = await post(token, form(fields), type);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { errors: string[] }).errors.join(' ')).toContain(message);
    }
    const json = await post(token, JSON.stringify({ conversion: 'ai-2x', url: 'https://example.com/a.png', scale: 1.5, format: 'jpeg', quality: 70 }), 'application/json');
    expect(json.status).toBe(202);
    expect(await json.json()).toMatchObject({ options: { scale: 1.5, width: null, noise: 'auto', format: 'jpeg', quality: 70 }, result_format: null, progress: null, notes: [] });
    const refused = await post(token, JSON.stringify({ conversion: 'cartoon', url: 'https://example.com/a.png', width: 300 }), 'application/json');
    expect(refused.status).toBe(400);
    const credits = await fetch(`${site.url}/api/v1/credits`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await credits.json()) as CreditsView).balance).toBe(4);
  });
});
