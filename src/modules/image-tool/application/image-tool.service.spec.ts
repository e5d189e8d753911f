import { Logger } from '@nestjs/common';
import { loadConfig } from 'src/config/app-config';
import { InsufficientCreditsError } from 'src/modules/credits';
import { RecordingJobQueue } from 'src/platform/queue/testing/recording-job-queue';
import { LiveWorkers } from 'src/platform/queue/worker-heartbeat.service';
import { RedisConnection } from 'src/platform/redis/redis.module';
import { InMemoryCreditLedger } from 'src/modules/credits/testing/in-memory-credit-ledger';
import { DEFAULT_IMAGE_OPTIONS, type ImageOptions } from 'src/contracts/images';
import type { ConversionId } from '../domain/conversions';
import { chargeKey, jobFiles, MAX_SUBMISSIONS_PER_MINUTE } from '../domain/image-job';
import { ImageJobNotFoundError, InvalidImageError, TooManySubmissionsError, TooManyUnfinishedJobsError, WouldNotEnlargeError } from '../domain/image-tool.errors';
import { InMemoryImageJobRepository } from '../testing/in-memory-image-job-repository';
import { InMemoryImageStore } from '../testing/in-memory-image-store';
import { FakeImageCodec, fakePng } from '../testing/fake-image-codec';
import { ImageToolService, type ImageSubmission } from './image-tool.service';
import { defaultRates } from '../domain/queue-estimate';

// In-memory ports (../testing): jobs as rows, files as a map, a codec that reads only a header
// (fakePng), the recording job queue. The SQL, the real codec and BullMQ are proven by
// test/images.e2e-spec.ts and test/image-store.int-spec.ts.
const png = fakePng();

type Submission = { conversion: ConversionId; options?: Partial<ImageOptions> } & ({ upload: Buffer } | { url: string });

describe('ImageToolService', () => {
  let jobs: InMemoryImageJobRepository;
  let ledger: InMemoryCreditLedger;
  let store: InMemoryImageStore;
  let queue: RecordingJobQueue;
  let images: ImageToolService;
  let codec: FakeImageCodec;
  /** A submission with the default options unless given; the job answered. */
  const submit = async (userId: string, submission: Submission) => (await answer(userId, submission)).job;
  const answer = (userId: string, { options, ...rest }: Submission) => images.submit(userId, { ...rest, options: { ...DEFAULT_IMAGE_OPTIONS, ...options } } as ImageSubmission);

  beforeEach(() => {
    const config = loadConfig({}, { HAS_LOGIN: 'true', HAS_PAYMENT: 'true', IMAGE_MAX_UNFINISHED: '3' });
    ledger = new InMemoryCreditLedger();
    jobs = new InMemoryImageJobRepository(ledger);
    store = new InMemoryImageStore();
    queue = new RecordingJobQueue();
    images = new ImageToolService(
      jobs,
      ledger,
      store,
      (codec = new FakeImageCodec()),
      queue,
      config,
      new LiveWorkers(config, new RedisConnection(config)),
    );
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  const credits = (userId: string, amount: number) =>
    ledger.grant({ userId, source: 'admin', sourceRef: `admin:${userId}:${amount}`, credits: amount, validityDays: 30, description: 'Test credits' });

  it('holds one credit, stores the upload and queues the job (by its id, once) for an accepted submission', async () => {
    await credits('u1', 5);
    const view = await submit('u1', { conversion: 'ai-2x', upload: png });
    expect(view).toMatchObject({ conversion: 'ai-2x', source: 'upload', status: 'queued', credits: 1, files: false, queue: { position: 0, estimate_seconds: 12 } });
    expect(await ledger.balance('u1')).toBe(4);
    expect(ledger.charges).toEqual([expect.objectContaining({ idempotencyKey: chargeKey(view.id), amount: 1, state: 'held', description: 'Image: AI upscale 2x' })]);
    expect(store.files.get(jobFiles(view.id).input)?.bytes).toEqual(png);
    // The queue job id's shape is pinned (queueJobId): jobs already in Redis carry it.
    expect(queue.queued).toEqual([{ name: 'image.convert', data: { jobId: view.id }, options: { jobId: `image-${view.id}`, priority: 1 } }]);
  });

  it('refuses a bad upload from its header before holding or storing anything', async () => {
    await credits('u1', 5);
    await expect(submit('u1', { conversion: 'sketch', upload: Buffer.from('<svg/>') })).rejects.toBeInstanceOf(InvalidImageError);
    expect(await ledger.balance('u1')).toBe(5);
    expect(store.files.size).toBe(0);
    expect(jobs.rows).toHaveLength(0);
  });

  it('refuses a short balance with 402 details, keeping no job and no file', async () => {
    const refused = submit('u1', { conversion: 'sketch', upload: png });
    await expect(refused).rejects.toBeInstanceOf(InsufficientCreditsError);
    await expect(refused).rejects.toMatchObject({ extra: { balance: 0, has_paid: false } });
    expect(jobs.rows).toHaveLength(0);
    expect(store.files.size).toBe(0);
    expect(queue.queued).toHaveLength(0);
  });

  it('refuses more unfinished jobs than IMAGE_MAX_UNFINISHED, and more than ten submissions a minute', async () => {
    await credits('u1', 50);
    for (let i = 0; i < 3; i++) await submit('u1', { conversion: 'sketch', url: 'https://images.example/a.png' });
    await expect(submit('u1', { conversion: 'sketch', url: 'https://images.example/a.png' })).rejects.toBeInstanceOf(TooManyUnfinishedJobsError);
    expect(await ledger.balance('u1')).toBe(47);

    for (const row of jobs.rows) row.status = 'succeeded';
    for (let i = 3; i < MAX_SUBMISSIONS_PER_MINUTE; i++) {
      await submit('u1', { conversion: 'sketch', url: 'https://images.example/a.png' });
      jobs.rows.at(-1)!.status = 'succeeded';
    }
    await expect(submit('u1', { conversion: 'sketch', url: 'https://images.example/a.png' })).rejects.toBeInstanceOf(TooManySubmissionsError);
    expect(await ledger.balance('u1')).toBe(50 - MAX_SUBMISSIONS_PER_MINUTE);
  });

  it('accepts a job while the queue is down: the row and the hold stay, the relay queues it later', async () => {
    await credits('u1', 2);
    queue.down = true;
    const view = await submit('u1', { conversion: 'cartoon', url: 'https://images.example/a.png' });
    expect(view).toMatchObject({ status: 'queued', source: 'url' });
    expect((await jobs.findById(view.id))!.sourceUrl).toBe('https://images.example/a.png');
    expect(await ledger.balance('u1')).toBe(1);
    queue.down = false;
    await images.enqueue((await jobs.findById(view.id))!);
    expect(queue.queued).toHaveLength(1);
  });

  it("queues fairly: each user's jobs step back one priority each, so a light user's first job goes ahead of a heavy user's later ones", async () => {
    await credits('heavy', 5);
    await credits('light', 5);
    const heavy = [];
    for (let i = 0; i < 3; i++) heavy.push(await submit('heavy', { conversion: 'cartoon', url: `https://images.example/${i}.png` }));
    const light = await submit('light', { conversion: 'cartoon', url: 'https://images.example/light.png' });
    const priorities = queue.queued.map((entry) => (entry.options as { priority: number }).priority);
    expect(priorities).toEqual([1, 2, 3, 1]);
    // What the page says follows the same order: behind the heavy user's first job only.
    expect((await images.job('light', light.id)).queue?.position).toBe(1);
    expect((await images.job('heavy', heavy[2]!.id)).queue?.position).toBe(3);
  });

  it("shows users their own jobs only, their place in the queue, and files only of a succeeded job that still has them", async () => {
    await credits('u1', 5);
    await credits('u2', 5);
    const first = await submit('u2', { conversion: 'sketch', upload: png });
    const mine = await submit('u1', { conversion: 'sketch', upload: png });
    // One job ahead of it (12 s typical) on the one slot of this process: 24 s, between 20 and 30.
    expect((await images.job('u1', mine.id)).queue).toEqual({ position: 1, estimate_seconds: 24, estimate_range: { low: 20, high: 30 } });
    await expect(images.job('u1', first.id)).rejects.toBeInstanceOf(ImageJobNotFoundError);
    await expect(images.file('u1', mine.id, 'result')).rejects.toBeInstanceOf(ImageJobNotFoundError);

    Object.assign(jobs.rows.find((j) => j.id === mine.id)!, { status: 'succeeded', resultWidth: 128, resultHeight: 96, inputWidth: 64, inputHeight: 48, finishedAt: new Date() });
    await store.put(jobFiles(mine.id).result, Buffer.from('result'), 'image/png');
    expect(await images.job('u1', mine.id)).toMatchObject({ files: true, queue: null, result: { width: 128, height: 96 }, input: { width: 64, height: 48, shrunk: false } });
    expect((await images.file('u1', mine.id, 'result')).contentType).toBe('image/png');
    await expect(images.file('u2', mine.id, 'result')).rejects.toBeInstanceOf(ImageJobNotFoundError);

    jobs.rows.find((j) => j.id === mine.id)!.filesDeletedAt = new Date();
    expect((await images.job('u1', mine.id)).files).toBe(false);
    await expect(images.file('u1', mine.id, 'result')).rejects.toBeInstanceOf(ImageJobNotFoundError);

    const page = await images.list('u1', 1);
    expect(page).toMatchObject({ page: 1, pages: 1, total: 1 });
    expect(page.items.map((j) => j.id)).toEqual([mine.id]);
  });

  it('computes the recent durations at most every 5 s per conversion, however often browsers poll', async () => {
    await credits('u1', 5);
    const job = await submit('u1', { conversion: 'ai-4x', upload: png });
    for (let i = 0; i < 5; i++) await images.job('u1', job.id);
    expect(jobs.recentDurations).toHaveBeenCalledTimes(1);
    // A conversion without figures of its own counts at the documented default rates.
    jobs.recentDurations.mockResolvedValueOnce(null);
    const fresh = await submit('u1', { conversion: 'cartoon', upload: png });
    const typical = defaultRates('cartoon').perMegapixel.typical * defaultRates('cartoon').megapixels;
    expect((await images.job('u1', fresh.id)).queue?.estimate_seconds).toBeGreaterThanOrEqual(typical);
    expect(jobs.recentDurations).toHaveBeenLastCalledWith('cartoon');
  });

  it('falls back to the default rates when the database is busy', async () => {
    await credits('u1', 5);
    jobs.recentDurations.mockRejectedValue(new Error('database busy'));
    const other = await submit('u1', { conversion: 'enhance', upload: png });
    expect((await images.job('u1', other.id)).queue).toMatchObject({ position: 0, estimate_seconds: expect.any(Number) });
  });

  it('estimates a conversion before it is submitted: the exact result size, the time behind the queue, the workers', async () => {
    await credits('u1', 5);
    await submit('u1', { conversion: 'ai-2x', upload: png });
    const estimate = await images.estimate('ai-2x', 4032, 3024, { scale: null, width: null });
    expect(estimate.result).toEqual({ width: 4096, height: 3072 });
    expect(estimate.queue).toEqual({ ahead: 1, workers: 1 });
    expect(estimate.basis).toBe('recent');
    // 12 s for the 1 MP job ahead, then 12.58 MP at 12 s each.
    expect(estimate.seconds!.typical).toBeCloseTo(12 + 12 * 12.58, 0);
    expect(estimate.seconds!.low).toBeLessThan(estimate.seconds!.high);
    jobs.recentDurations.mockResolvedValue(null);
    expect((await images.estimate('sketch', 800, 600, { scale: null, width: null })).basis).toBe('default');
  });

  it('answers the same image with the same settings within 24 hours by the earlier job, for nothing; another owner pays', async () => {
    await credits('u1', 5);
    await credits('u2', 5);
    const first = await answer('u1', { conversion: 'ai-2x', upload: png, options: { format: 'webp', quality: 80 } });
    expect(first).toMatchObject({ earlier: false, job: { credits: 1 } });
    // Still queued: that job is the answer (followed like a new one), nothing more held.
    const whileQueued = await answer('u1', { conversion: 'ai-2x', upload: png, options: { quality: 80, format: 'webp' } });
    expect(whileQueued).toMatchObject({ earlier: true, job: { id: first.job.id, status: 'queued', credits: 1 } });
    expect(whileQueued.job.repeat).toBeUndefined();
    expect(await ledger.balance('u1')).toBe(4);

    const finishedAt = new Date('2026-11-28T14:02:00Z');
    Object.assign(jobs.rows[0]!, { status: 'succeeded', finishedAt, inputWidth: 64, inputHeight: 48, resultWidth: 128, resultHeight: 96, resultFormat: 'webp' });
    const again = await answer('u1', { conversion: 'ai-2x', upload: png, options: { format: 'webp', quality: 80 } });
    expect(again).toMatchObject({ earlier: true, job: { id: first.job.id, status: 'succeeded', credits: 0, repeat: { converted_at: finishedAt.toISOString() }, result_format: 'webp' } });
    expect(await ledger.balance('u1')).toBe(4);
    expect(jobs.rows).toHaveLength(1);
    expect(queue.queued).toHaveLength(1);

    // Other settings, another owner, files deleted or a day later: a new job and a credit each.
    expect((await answer('u1', { conversion: 'ai-2x', upload: png, options: { format: 'png' } })).earlier).toBe(false);
    expect((await answer('u2', { conversion: 'ai-2x', upload: png, options: { format: 'webp', quality: 80 } })).earlier).toBe(false);
    expect([await ledger.balance('u1'), await ledger.balance('u2')]).toEqual([3, 4]);
    jobs.rows[0]!.createdAt = new Date(Date.now() - 25 * 3_600_000);
    expect((await answer('u1', { conversion: 'ai-2x', upload: png, options: { format: 'webp', quality: 80 } })).earlier).toBe(false);
    expect(await ledger.balance('u1')).toBe(2);
  });

  it('refuses an enlargement of an upload past 4096 px before holding anything; the clean-up and a smaller exact width are taken', async () => {
    await credits('u1', 5);
    codec.size = { width: 5000, height: 3000 };
    const refused = submit('u1', { conversion: 'ai-2x', upload: png });
    await expect(refused).rejects.toBeInstanceOf(WouldNotEnlargeError);
    await expect(refused).rejects.toMatchObject({ code: 'IMAGES.WOULD_NOT_ENLARGE', message: 'This image is larger than 4096 px: an enlargement would come back smaller. Choose Clean-up (1x) instead.' });
    await expect(submit('u1', { conversion: 'enhance', upload: png })).rejects.toBeInstanceOf(WouldNotEnlargeError);
    expect([await ledger.balance('u1'), jobs.rows.length, store.files.size]).toEqual([5, 0, 0]);
    expect(await submit('u1', { conversion: 'ai-2x', upload: png, options: { scale: 1 } })).toMatchObject({ status: 'queued', options: { scale: 1 } });
    expect(await submit('u1', { conversion: 'ai-2x-fast', upload: png, options: { width: 2000 } })).toMatchObject({ status: 'queued', options: { width: 2000 } });
    expect(await ledger.balance('u1')).toBe(3);
  });
});
