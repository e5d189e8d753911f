import { Logger } from '@nestjs/common';
import { loadConfig } from 'src/config/app-config';
import { InsufficientCreditsError } from 'src/modules/credits/domain/credits.errors';
import { JobQueue } from 'src/platform/queue/job-queue.port';
import type { LiveWorkers } from 'src/platform/queue/worker-heartbeat.service';
import { InMemoryCreditLedger } from 'test/fakes/in-memory-credit-ledger.adapter';
import type { ConversionId } from '../domain/conversions';
import { ImageCodec } from '../domain/image-codec.port';
import { chargeKey, ImageJob, jobFiles, MAX_SUBMISSIONS_PER_MINUTE } from '../domain/image-job';
import { ImageJobRepository, type NewImageJob } from '../domain/image-job-repository.port';
import { ImageStore } from '../domain/image-store.port';
import { defaultRates, type RecentRates } from '../domain/queue-estimate';
import { ImageJobNotFoundError, InvalidImageError, TooManySubmissionsError, TooManyUnfinishedJobsError } from '../domain/image-tool.errors';
import { ImageToolService } from './image-tool.service';

// ---------------------------------------------------------------------------------------------
// In-memory ports: jobs as rows (a failed transaction rolls back its rows and the ledger's
// changes, as the database transaction the ledger joins does), files as a map, a
// codec that knows PNG by its signature, a queue that records or refuses. The SQL, the real
// codec and BullMQ are proven by test/images.e2e-spec.ts and test/image-store.int-spec.ts.
// ---------------------------------------------------------------------------------------------

class InMemoryImageJobRepository extends ImageJobRepository {
  readonly rows: ImageJob[] = [];
  constructor(private readonly ledger?: InMemoryCreditLedger) {
    super();
  }
  async inTransaction<T>(work: () => Promise<T>): Promise<T> {
    const before = this.rows.length;
    const restoreLedger = this.ledger?.snapshot();
    try {
      return await work();
    } catch (error) {
      this.rows.splice(before);
      restoreLedger?.();
      throw error;
    }
  }
  async lockUser() {}
  async countUnfinished(userId: string) {
    return this.rows.filter((j) => j.userId === userId && (j.status === 'queued' || j.status === 'running')).length;
  }
  async countSince(userId: string, since: Date) {
    return this.rows.filter((j) => j.userId === userId && j.createdAt >= since).length;
  }
  async create(job: NewImageJob) {
    const row = Object.assign(new ImageJob(), job, {
      status: 'queued' as const,
      errorCode: null,
      errorMessage: null,
      inputWidth: null,
      inputHeight: null,
      resultWidth: null,
      resultHeight: null,
      shrunk: false,
      attempts: 0,
      createdAt: new Date(),
      startedAt: null,
      finishedAt: null,
      filesDeletedAt: null,
    });
    this.rows.push(row);
    return { ...row };
  }
  async findById(id: string) {
    const row = this.rows.find((j) => j.id === id);
    return row ? { ...row } : null;
  }
  async listForUser(userId: string, page: number, pageSize: number) {
    const mine = this.rows.filter((j) => j.userId === userId).reverse();
    return { items: mine.slice((page - 1) * pageSize, page * pageSize), total: mine.length };
  }
  async start() {
    return null;
  }
  async succeed() {
    return false;
  }
  async fail() {
    return false;
  }
  async queueAhead(job: ImageJob | null) {
    const ahead = this.rows.filter((j) => j.id !== job?.id && (j.status === 'running' || (j.status === 'queued' && (!job || j.createdAt <= job.createdAt))));
    return { mine: null, ahead: ahead.map((j) => ({ conversion: j.conversion, megapixels: null, runningFor: j.status === 'running' ? 0 : null })) };
  }
  // Seconds per output megapixel of recent jobs (1 MP typical): a queued job of unknown size counts as 12 s.
  recentDurations = jest.fn(async (_conversion: ConversionId): Promise<RecentRates | null> => ({ perMegapixel: { low: 10, typical: 12, high: 15 }, megapixels: 1, jobs: 20 }));
  async queuedBefore() {
    return [];
  }
  async runningSince() {
    return [];
  }
  async unfinishedBefore() {
    return [];
  }
  async filesOlderThan() {
    return [];
  }
  async markFilesDeleted() {}
}

class InMemoryImageStore extends ImageStore {
  readonly files = new Map<string, { bytes: Buffer; contentType: string }>();
  async put(key: string, bytes: Buffer, contentType: string) {
    this.files.set(key, { bytes, contentType });
  }
  async get(key: string) {
    return this.files.get(key) ?? null;
  }
  async delete(key: string) {
    this.files.delete(key);
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Only probe is the web side's business: PNG by its signature, anything else refused. */
class SignatureCodec extends ImageCodec {
  async probe(bytes: Uint8Array) {
    if (!Buffer.from(bytes.subarray(0, 8)).equals(PNG_SIGNATURE)) throw new InvalidImageError('Please upload a JPEG, PNG, WebP or GIF image');
    return { format: 'png' as const, width: 64, height: 48 };
  }
  decode(): never {
    throw new Error('not on the web side');
  }
  encodePng(): never {
    throw new Error('not on the web side');
  }
  thumbnail(): never {
    throw new Error('not on the web side');
  }
}

class RecordingQueue extends JobQueue {
  readonly queued: { name: string; data: unknown; options: unknown }[] = [];
  down = false;
  async enqueue(name: string, data: unknown, options?: unknown) {
    if (this.down) throw new Error('Redis is down');
    this.queued.push({ name, data, options });
  }
  localCounts() {
    return null;
  }

  stateCounts(): Promise<never> {
    return Promise.reject(new Error('not counted in this spec'));
  }
}

const png = Buffer.concat([PNG_SIGNATURE, Buffer.alloc(32)]);

describe('ImageToolService', () => {
  let jobs: InMemoryImageJobRepository;
  let ledger: InMemoryCreditLedger;
  let store: InMemoryImageStore;
  let queue: RecordingQueue;
  let images: ImageToolService;

  beforeEach(() => {
    ledger = new InMemoryCreditLedger();
    jobs = new InMemoryImageJobRepository(ledger);
    store = new InMemoryImageStore();
    queue = new RecordingQueue();
    images = new ImageToolService(
      jobs,
      ledger,
      store,
      new SignatureCodec(),
      queue,
      loadConfig({}, { HAS_LOGIN: 'true', HAS_PAYMENT: 'true', IMAGE_MAX_UNFINISHED: '3' }),
      { count: async () => undefined } as unknown as LiveWorkers,
    );
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  const credits = (userId: string, amount: number) =>
    ledger.grant({ userId, source: 'admin', sourceRef: `admin:${userId}:${amount}`, credits: amount, validityDays: 30, description: 'Test credits' });

  it('holds one credit, stores the upload and queues the job (by its id, once) for an accepted submission', async () => {
    await credits('u1', 5);
    const view = await images.submit('u1', { conversion: 'ai-2x', upload: png });
    expect(view).toMatchObject({ conversion: 'ai-2x', source: 'upload', status: 'queued', credits: 1, files: false, queue: { position: 0, estimate_seconds: 12 } });
    expect(await ledger.balance('u1')).toBe(4);
    expect(ledger.charges).toEqual([expect.objectContaining({ idempotencyKey: chargeKey(view.id), amount: 1, state: 'held', description: 'Image: AI upscale 2x' })]);
    expect(store.files.get(jobFiles(view.id).input)?.bytes).toEqual(png);
    // The queue job id's shape is pinned (queueJobId): jobs already in Redis carry it.
    expect(queue.queued).toEqual([{ name: 'image.convert', data: { jobId: view.id }, options: { jobId: `image-${view.id}` } }]);
  });

  it('refuses a bad upload from its header before holding or storing anything', async () => {
    await credits('u1', 5);
    await expect(images.submit('u1', { conversion: 'sketch', upload: Buffer.from('<svg/>') })).rejects.toBeInstanceOf(InvalidImageError);
    expect(await ledger.balance('u1')).toBe(5);
    expect(store.files.size).toBe(0);
    expect(jobs.rows).toHaveLength(0);
  });

  it('refuses a short balance with 402 details, keeping no job and no file', async () => {
    const refused = images.submit('u1', { conversion: 'sketch', upload: png });
    await expect(refused).rejects.toBeInstanceOf(InsufficientCreditsError);
    await expect(refused).rejects.toMatchObject({ extra: { balance: 0, has_paid: false } });
    expect(jobs.rows).toHaveLength(0);
    expect(store.files.size).toBe(0);
    expect(queue.queued).toHaveLength(0);
  });

  it('refuses more unfinished jobs than IMAGE_MAX_UNFINISHED, and more than ten submissions a minute', async () => {
    await credits('u1', 50);
    for (let i = 0; i < 3; i++) await images.submit('u1', { conversion: 'sketch', url: 'https://images.example/a.png' });
    await expect(images.submit('u1', { conversion: 'sketch', url: 'https://images.example/a.png' })).rejects.toBeInstanceOf(TooManyUnfinishedJobsError);
    expect(await ledger.balance('u1')).toBe(47);

    for (const row of jobs.rows) row.status = 'succeeded';
    for (let i = 3; i < MAX_SUBMISSIONS_PER_MINUTE; i++) {
      await images.submit('u1', { conversion: 'sketch', url: 'https://images.example/a.png' });
      jobs.rows.at(-1)!.status = 'succeeded';
    }
    await expect(images.submit('u1', { conversion: 'sketch', url: 'https://images.example/a.png' })).rejects.toBeInstanceOf(TooManySubmissionsError);
    expect(await ledger.balance('u1')).toBe(50 - MAX_SUBMISSIONS_PER_MINUTE);
  });

  it('accepts a job while the queue is down: the row and the hold stay, the relay queues it later', async () => {
    await credits('u1', 2);
    queue.down = true;
    const view = await images.submit('u1', { conversion: 'cartoon', url: 'https://images.example/a.png' });
    expect(view).toMatchObject({ status: 'queued', source: 'url' });
    expect((await jobs.findById(view.id))!.sourceUrl).toBe('https://images.example/a.png');
    expect(await ledger.balance('u1')).toBe(1);
    queue.down = false;
    await images.enqueue(view.id);
    expect(queue.queued).toHaveLength(1);
  });

  it("shows users their own jobs only, their place in the queue, and files only of a succeeded job that still has them", async () => {
    await credits('u1', 5);
    await credits('u2', 5);
    const first = await images.submit('u2', { conversion: 'sketch', upload: png });
    const mine = await images.submit('u1', { conversion: 'sketch', upload: png });
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
    const job = await images.submit('u1', { conversion: 'ai-4x', upload: png });
    for (let i = 0; i < 5; i++) await images.job('u1', job.id);
    expect(jobs.recentDurations).toHaveBeenCalledTimes(1);
    // A conversion without figures of its own counts at the documented default rates.
    jobs.recentDurations.mockResolvedValueOnce(null);
    const fresh = await images.submit('u1', { conversion: 'cartoon', upload: png });
    const typical = defaultRates('cartoon').perMegapixel.typical * defaultRates('cartoon').megapixels;
    expect((await images.job('u1', fresh.id)).queue?.estimate_seconds).toBeGreaterThanOrEqual(typical);
    expect(jobs.recentDurations).toHaveBeenLastCalledWith('cartoon');
  });

  it('falls back to the default rates when the database is busy', async () => {
    await credits('u1', 5);
    jobs.recentDurations.mockRejectedValue(new Error('database busy'));
    const other = await images.submit('u1', { conversion: 'enhance', upload: png });
    expect((await images.job('u1', other.id)).queue).toMatchObject({ position: 0, estimate_seconds: expect.any(Number) });
  });

  it('estimates a conversion before it is submitted: the exact result size, the time behind the queue, the workers', async () => {
    await credits('u1', 5);
    await images.submit('u1', { conversion: 'ai-2x', upload: png });
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
});
